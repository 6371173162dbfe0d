'use strict';

// Seeded generators of the shapes applications store: wide documents, GeoJSON and
// numeric arrays, API responses with non-Latin text, catalogs keyed by numeric-string
// ids, log records, arrays of small documents, binary-heavy documents.  The same seed
// always yields the same documents.  The shapes follow public data (Twitter's API
// responses, GeoJSON, JSON benchmark catalogs); every value is generated.

const bson = require('bson');
const { prng, int, pick, word, bytes, ASCII } = require('./generate');

// code point ranges [first, last] of the scripts in non-Latin text
const SCRIPTS = {
    han: [0x4e00, 0x9fa5],
    hiragana: [0x3041, 0x3093],
    katakana: [0x30a1, 0x30f6],
    hangul: [0xac00, 0xd7a3],
    cyrillic: [0x0430, 0x044f],
    emoji: [0x1f300, 0x1f64f],
};
// the scripts of each language's text, with punctuation between runs
const LANGS = {
    ja: ['hiragana', 'hiragana', 'han', 'katakana', 'emoji'],
    zh: ['han', 'han', 'han', 'emoji'],
    ko: ['hangul', 'hangul', 'emoji'],
    ru: ['cyrillic', 'cyrillic', 'cyrillic', 'emoji'],
    en: ['latin', 'latin', 'latin', 'emoji'],
};
const PUNCTUATION = [' ', ' ', '、', '。', '！', ', ', '. ', ' #', ' @', '\n'];

function codePoints(rng, script, n) {
    if (script === 'latin') return word(rng, ASCII, n, n);
    const [lo, hi] = SCRIPTS[script];
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCodePoint(int(rng, lo, hi));
    return s;
}

// about `length` characters of one language's text: runs of its scripts and punctuation
function localText(rng, lang, length) {
    let s = '';
    while (s.length < length) s += codePoints(rng, pick(rng, LANGS[lang]), int(rng, 1, 8)) + pick(rng, PUNCTUATION);
    return s;
}

// 9-digit ids, unique within one generator call
function idMaker(rng) {
    const seen = new Set();
    return () => {
        let id;
        do id = int(rng, 100000000, 999999999); while (seen.has(id));
        seen.add(id);
        return id;
    };
}

// one document of `count` top-level fields: 12-character random keys, values alternately
// a string of 4-20 characters and a number (half int32, half doubles)
function wideDocument(seed, count) {
    const rng = prng(seed);
    const doc = {};
    for (let i = 0; i < count; i++) {
        let key;
        do key = word(rng, ASCII, 12, 12); while (key in doc);
        doc[key] = i % 2 === 0 ? word(rng, ASCII, 4, 20) : rng() < 0.5 ? int(rng, -1e6, 1e6) : int(rng, -1e8, 1e8) / 100;
    }
    return doc;
}

// a closed ring of `n` [lon, lat] points around (lon, lat)
function ring(rng, lon, lat, radius, n) {
    const points = [];
    for (let i = 0; i < n; i++) {
        const angle = 2 * Math.PI * i / n, r = radius * (0.6 + 0.4 * rng());
        points.push([lon + r * Math.cos(angle), lat + r * Math.sin(angle)]);
    }
    points.push(points[0].slice());
    return points;
}

function polygon(rng, lon, lat, points) {
    const rings = [ring(rng, lon, lat, 0.5, points)];
    if (rng() < 0.3) rings.push(ring(rng, lon, lat, 0.1, Math.max(4, points >> 3)));    // a hole
    return rings;
}

// a GeoJSON FeatureCollection of `count` Polygons (3 array levels) and MultiPolygons (4)
function featureCollection(seed, count) {
    const rng = prng(seed);
    const features = [];
    for (let i = 0; i < count; i++) {
        const lon = rng() * 340 - 170, lat = rng() * 160 - 80;
        const multi = rng() < 0.4;
        const coordinates = multi
            ? Array.from({ length: int(rng, 2, 4) }, () => polygon(rng, lon + rng(), lat + rng(), int(rng, 20, 120)))
            : polygon(rng, lon, lat, int(rng, 40, 300));
        features.push({
            type: 'Feature',
            id: i + 1,
            properties: { name: word(rng, ASCII, 5, 15), code: word(rng, ASCII, 3, 3), population: int(rng, 0, 2e9),
                area: rng() * 1e6 },
            geometry: { type: multi ? 'MultiPolygon' : 'Polygon', coordinates },
        });
    }
    return { type: 'FeatureCollection', features };
}

// a GeoJSON LineString Feature: a track of `count` [lon, lat] pairs
function track(seed, count) {
    const rng = prng(seed);
    let lon = 2.35, lat = 48.85;
    const coordinates = [];
    for (let i = 0; i < count; i++) {
        lon += (rng() - 0.5) * 1e-3;
        lat += (rng() - 0.5) * 1e-3;
        coordinates.push([lon, lat]);
    }
    return { type: 'Feature', properties: { name: word(rng, ASCII, 6, 12), device: word(rng, ASCII, 8, 8) },
        geometry: { type: 'LineString', coordinates } };
}

function doubleArray(seed, count) {
    const rng = prng(seed);
    return { values: Array.from({ length: count }, () => (rng() - 0.5) * 2000) };
}

// int32 values of every magnitude, a third negative
function int32Array(seed, count) {
    const rng = prng(seed);
    return { values: Array.from({ length: count }, () => {
        const magnitude = Math.floor(2 ** (31 * rng())) - 1;
        return rng() < 0.33 ? -magnitude - 1 : magnitude;
    }) };
}

const COLORS = ['C0DEED', '1DA1F2', 'FFFFFF', '000000', 'F5F8FA', '657786', 'E81C4F', '8899A6'];

function date(rng) {
    return new Date(1.25e12 + int(rng, 0, 4e11)).toUTCString();
}

function imageUrl(rng, https) {
    return (https ? 'https' : 'http') + '://pbs.example.com/profile_images/' + int(rng, 1e8, 9e8) + '/' + word(rng, ASCII, 8, 16) + '_normal.jpg';
}

// a user object of 40 fields, as in a social-media API response; its description has
// at most `textLength` characters
function user(rng, lang, textLength) {
    const id = int(rng, 1e6, 4e9);
    const image = imageUrl(rng, false), background = 'http://abs.example.com/images/themes/theme' + int(rng, 1, 20) + '/bg.png';
    return {
        id, id_str: String(id), name: localText(rng, lang, int(rng, 3, 12)), screen_name: word(rng, ASCII, 5, 15),
        location: rng() < 0.5 ? localText(rng, lang, int(rng, 2, 10)) : '', description: localText(rng, lang, int(rng, textLength >> 3, textLength)),
        url: rng() < 0.4 ? 'https://t.co/' + word(rng, ASCII, 10, 10) : null,
        entities: { description: { urls: [] } }, protected: rng() < 0.05,
        followers_count: int(rng, 0, 1e6), friends_count: int(rng, 0, 5000), listed_count: int(rng, 0, 500),
        created_at: date(rng), favourites_count: int(rng, 0, 1e5), utc_offset: rng() < 0.5 ? null : int(rng, -12, 12) * 3600,
        time_zone: rng() < 0.5 ? null : word(rng, ASCII, 5, 10), geo_enabled: rng() < 0.5, verified: rng() < 0.02,
        statuses_count: int(rng, 0, 2e5), lang, contributors_enabled: false, is_translator: false,
        is_translation_enabled: false, profile_background_color: pick(rng, COLORS),
        profile_background_image_url: background, profile_background_image_url_https: background.replace('http', 'https'),
        profile_background_tile: rng() < 0.2, profile_image_url: image, profile_image_url_https: image.replace('http', 'https'),
        profile_banner_url: rng() < 0.5 ? 'https://pbs.example.com/profile_banners/' + id + '/' + int(rng, 1e9, 2e9) : null,
        profile_link_color: pick(rng, COLORS), profile_sidebar_border_color: pick(rng, COLORS),
        profile_sidebar_fill_color: pick(rng, COLORS), profile_text_color: pick(rng, COLORS),
        profile_use_background_image: rng() < 0.8, default_profile: rng() < 0.5, default_profile_image: rng() < 0.1,
        following: false, follow_request_sent: false, notifications: false,
    };
}

function indices(rng) {
    const at = int(rng, 0, 100);
    return [at, at + int(rng, 3, 20)];
}

function entities(rng, lang) {
    return {
        hashtags: Array.from({ length: int(rng, 0, 3) }, () => ({ text: localText(rng, lang, int(rng, 2, 8)), indices: indices(rng) })),
        symbols: [],
        urls: Array.from({ length: int(rng, 0, 1) }, () => ({ url: 'https://t.co/' + word(rng, ASCII, 10, 10),
            expanded_url: 'https://example.com/' + word(rng, ASCII, 5, 30), display_url: 'example.com/' + word(rng, ASCII, 5, 10) + '…',
            indices: indices(rng) })),
        user_mentions: Array.from({ length: int(rng, 0, 2) }, () => {
            const id = int(rng, 1e6, 4e9);
            return { screen_name: word(rng, ASCII, 5, 15), name: localText(rng, lang, int(rng, 3, 10)), id, id_str: String(id),
                indices: indices(rng) };
        }),
    };
}

// one status of a social-media API response (about 25 fields and a user of 40);
// textLength: characters of its text and of its user's description at most
function status(rng, lang, textLength, retweet) {
    const id = 5e17 + int(rng, 0, 1e9) * 1e8;
    const s = {
        metadata: { result_type: 'recent', iso_language_code: lang },
        created_at: date(rng), id, id_str: String(id), text: localText(rng, lang, int(rng, textLength >> 1, textLength)),
        source: '<a href="http://example.com/app" rel="nofollow">' + word(rng, ASCII, 5, 15) + '</a>',
        truncated: false, in_reply_to_status_id: null, in_reply_to_status_id_str: null, in_reply_to_user_id: null,
        in_reply_to_user_id_str: null, in_reply_to_screen_name: null, user: user(rng, lang, textLength),
        geo: null, coordinates: null, place: null, contributors: null,
    };
    if (retweet) s.retweeted_status = status(rng, lang, textLength, false);
    Object.assign(s, { retweet_count: int(rng, 0, 5000), favorite_count: int(rng, 0, 5000), entities: entities(rng, lang),
        favorited: false, retweeted: false, lang });
    return s;
}

// a search API response: `count` statuses, a third of them retweets carrying the original
function apiResponse(seed, count) {
    const rng = prng(seed);
    const statuses = [];
    for (let i = 0; i < count; i++) statuses.push(status(rng, pick(rng, Object.keys(LANGS)), 200, rng() < 0.33));
    return {
        statuses,
        search_metadata: { completed_in: rng(), max_id: statuses[0].id, max_id_str: statuses[0].id_str,
            next_results: '?max_id=' + statuses[count - 1].id_str + '&q=' + word(rng, ASCII, 5, 10) + '&count=' + count,
            query: word(rng, ASCII, 5, 10), refresh_url: '?since_id=' + statuses[0].id_str, count, since_id: 0, since_id_str: '0' },
    };
}

// one status with its user cut to the first 16 fields, about 1.5 kB
function tweet(seed) {
    const rng = prng(seed);
    const s = status(rng, 'ja', 70, false);
    s.user = Object.fromEntries(Object.entries(s.user).slice(0, 16));
    return s;
}

// an object keyed by numeric-string ids of `count` names
function names(rng, newId, count) {
    const out = {};
    for (let i = 0; i < count; i++) out[newId()] = word(rng, ASCII, 4, 12) + ' ' + word(rng, ASCII, 3, 10);
    return out;
}

const some = (rng, lo, hi, make) => Array.from({ length: int(rng, lo, hi) }, make);

// an event catalog: objects keyed by numeric-string ids, many small arrays of ids, many nulls
function catalog(seed, eventCount, performanceCount) {
    const rng = prng(seed);
    const newId = idMaker(rng);
    const areaNames = names(rng, newId, 20), seatCategoryNames = names(rng, newId, 60);
    const topicNames = names(rng, newId, 30), subTopicNames = names(rng, newId, 20);
    const [areas, seats, topics, subTopics] = [areaNames, seatCategoryNames, topicNames, subTopicNames].map((o) => Object.keys(o).map(Number));
    const events = {}, topicSubTopics = {};
    for (const t of topics) topicSubTopics[t] = some(rng, 1, 4, () => pick(rng, subTopics));
    for (let i = 0; i < eventCount; i++) {
        const id = newId();
        events[id] = { description: null, id, logo: rng() < 0.5 ? null : '/images/UE0AAAAA' + word(rng, ASCII, 6, 6),
            name: word(rng, ASCII, 5, 25), subTopicIds: some(rng, 1, 4, () => pick(rng, subTopics)), subjectCode: null,
            subtitle: null, topicIds: some(rng, 1, 3, () => pick(rng, topics)) };
    }
    const eventIds = Object.keys(events).map(Number);
    const performances = some(rng, performanceCount, performanceCount, () => ({
        eventId: pick(rng, eventIds), id: newId(), logo: null, name: null,
        prices: some(rng, 1, 6, () => ({ amount: int(rng, 5, 200) * 500, audienceSubCategoryId: 337100890, seatCategoryId: pick(rng, seats) })),
        seatCategories: some(rng, 1, 6, () => ({ areas: some(rng, 1, 8, () => ({ areaId: pick(rng, areas), blockIds: [] })),
            seatCategoryId: pick(rng, seats) })),
        seatMapImage: null, start: 1.37e12 + int(rng, 0, 3e7) * 1000, venueCode: pick(rng, ['PLEYEL_PLEYEL', 'CITE_MUSIQUE']),
    }));
    return { areaNames, audienceSubCategoryNames: { 337100890: 'Abonné' }, blockNames: {}, events, performances,
        seatCategoryNames, subTopicNames, subjectNames: {}, topicNames, topicSubTopics,
        venueNames: { PLEYEL_PLEYEL: 'Salle Pleyel', CITE_MUSIQUE: 'Cité de la musique' } };
}

const LEVELS = ['debug', 'info', 'info', 'info', 'info', 'warn', 'error'];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PUT', 'DELETE'];

// log records, one document each: Dates, ObjectIds, Longs (some beyond 2^53) and short strings
function logEvents(seed, count) {
    const rng = prng(seed);
    const services = Array.from({ length: 6 }, () => word(rng, ASCII, 3, 8));
    const t0 = 1.7e12;
    return Array.from({ length: count }, (_, i) => {
        const method = pick(rng, METHODS), path = '/api/v1/' + word(rng, ASCII, 3, 10) + '/' + int(rng, 1, 99999);
        const status = pick(rng, [200, 200, 200, 201, 204, 304, 400, 404, 500]);
        return {
            _id: new bson.ObjectId(bytes(rng, 12)),
            ts: new Date(t0 + i * 37 + int(rng, 0, 36)),
            level: pick(rng, LEVELS), service: pick(rng, services), host: 'web-' + int(rng, 1, 40), pid: int(rng, 100, 65000),
            msg: method + ' ' + path + ' ' + status,
            requestId: bson.Long.fromBits(int(rng, -2e9, 2e9), int(rng, -2e9, 2e9)),
            userId: rng() < 0.7 ? new bson.ObjectId(bytes(rng, 12)) : null,
            durationUs: bson.Long.fromNumber(int(rng, 50, 5e6)),
            bytes: int(rng, 0, 1e6), status,
            tags: some(rng, 0, 3, () => word(rng, ASCII, 2, 6)),
            ctx: { method, path, ip: int(rng, 1, 254) + '.' + int(rng, 0, 255) + '.' + int(rng, 0, 255) + '.' + int(rng, 1, 254) },
        };
    });
}

// Documents of two collections read in turn, `batch` of each, as a program reading
// two cursors meets them: users and orders, both beginning with an ObjectId _id and
// of 64-127 bytes, the size class a reader's slot is keyed by
function twoCollections(seed, count, batch) {
    const rng = prng(seed);
    const t0 = 1.7e12;
    const userIds = Array.from({ length: 50 }, () => new bson.ObjectId(bytes(rng, 12)));
    const userDoc = (i) => ({
        _id: new bson.ObjectId(bytes(rng, 12)), name: word(rng, ASCII, 4, 12), email: word(rng, ASCII, 3, 10) + '@example.com',
        age: int(rng, 18, 90), active: rng() < 0.8, createdAt: new Date(t0 + i * 1000 + int(rng, 0, 999)),
    });
    const orderDoc = (i) => ({
        _id: new bson.ObjectId(bytes(rng, 12)), userId: pick(rng, userIds), total: Math.round(rng() * 50000) / 100,
        status: pick(rng, ['open', 'paid', 'shipped', 'returned']), qty: int(rng, 1, 20), placedAt: new Date(t0 + i * 1000),
    });
    return Array.from({ length: count }, (_, i) => ((i / batch) & 1 ? orderDoc(i) : userDoc(i)));
}

// documents whose shape changes every time, as a collection without a schema: an
// ObjectId _id, then 4 to 12 fields of 24 names in any order, of any of 8 types
const FIELD_NAMES = ['name', 'title', 'count', 'score', 'active', 'created', 'owner', 'tags', 'meta', 'price', 'note', 'kind',
    'level', 'ref', 'size', 'color', 'flags', 'rank', 'city', 'email', 'total', 'state', 'group', 'extra'];
function changingShapes(seed, count) {
    const rng = prng(seed);
    const values = [
        () => int(rng, -1e6, 1e6), () => rng() * 1000, () => word(rng, ASCII, 3, 16), () => rng() < 0.5, () => null,
        () => new Date(1.7e12 + int(rng, 0, 1e9)), () => ({ a: int(rng, 0, 99), b: word(rng, ASCII, 2, 8) }), () => some(rng, 1, 4, () => int(rng, 0, 999)),
    ];
    return Array.from({ length: count }, () => {
        const doc = { _id: new bson.ObjectId(bytes(rng, 12)) };
        const names = FIELD_NAMES.slice();
        for (let n = int(rng, 4, 12); n > 0; n--) {
            const name = names.splice(int(rng, 0, names.length - 1), 1)[0];
            doc[name] = pick(rng, values)();
        }
        return doc;
    });
}

// documents that are maps keyed by ids, each with keys of its own (counters per
// user, say): an ObjectId _id, then `fields` int32 counters keyed by 8 hex digits
function idKeyedMaps(seed, count, fields) {
    const rng = prng(seed);
    const hex = () => Array.from(bytes(rng, 4), (b) => b.toString(16).padStart(2, '0')).join('');
    return Array.from({ length: count }, () => {
        const doc = { _id: new bson.ObjectId(bytes(rng, 12)) };
        for (let i = 0; i < fields; i++) doc['u' + hex().slice(1)] = int(rng, 0, 99999);
        return doc;
    });
}

// user records of a collection whose documents leave out the fields they have no
// value for, as most collections' do: an ObjectId _id, a name and a creation date in
// every one; an email, a phone, an age, an address (its zip optional too), tags, a
// last login, preferences and a deletion date each in 5-90% of them
function sparseFields(seed, count) {
    const rng = prng(seed);
    const t0 = 1.7e12;
    const maybe = (p, make) => (rng() < p ? make() : undefined);
    return Array.from({ length: count }, (_, i) => {
        const doc = { _id: new bson.ObjectId(bytes(rng, 12)), name: word(rng, ASCII, 4, 14),
            email: maybe(0.9, () => word(rng, ASCII, 3, 10) + '@example.com'), phone: maybe(0.4, () => '+1' + int(rng, 2e9, 9e9)),
            age: maybe(0.7, () => int(rng, 18, 90)),
            address: maybe(0.6, () => ({ street: word(rng, ASCII, 5, 20), city: word(rng, ASCII, 4, 12),
                zip: maybe(0.8, () => String(int(rng, 10000, 99999))), country: pick(rng, ['US', 'CA', 'GB', 'DE']) })),
            tags: maybe(0.5, () => some(rng, 1, 4, () => word(rng, ASCII, 2, 8))),
            lastLogin: maybe(0.8, () => new Date(t0 + int(rng, 0, 1e9))),
            prefs: maybe(0.2, () => ({ theme: pick(rng, ['dark', 'light']), lang: maybe(0.5, () => pick(rng, ['en', 'fr', 'de'])) })),
            deletedAt: maybe(0.05, () => new Date(t0 + int(rng, 0, 1e9))),
            createdAt: new Date(t0 - i * 60000) };
        return dropUndefined(doc);
    });
}

// the object without its fields whose value is undefined, at every level
function dropUndefined(value) {
    if (value === null || typeof value !== 'object' || !Object.getPrototypeOf(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
    const out = {};
    for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = dropUndefined(v);
    return out;
}

// one document: an array of `count` small documents of five plain fields
function smallDocsArray(seed, count) {
    const rng = prng(seed);
    return { items: Array.from({ length: count }, (_, i) => ({ id: i, name: word(rng, ASCII, 3, 12), score: rng() * 100,
        active: rng() < 0.5, tag: rng() < 0.5 ? null : word(rng, ASCII, 2, 6) })) };
}

// a stored file's metadata and data: large chunks, a thumbnail, and small records of UUIDs and hashes
function binaryDocument(seed, chunks, chunkSize, records) {
    const rng = prng(seed);
    return {
        _id: new bson.ObjectId(bytes(rng, 12)),
        filename: word(rng, ASCII, 5, 20) + '.bin', contentType: 'application/octet-stream', length: chunks * chunkSize,
        uploadDate: new Date(1.6e12 + int(rng, 0, 1e11)),
        md5: new bson.Binary(bytes(rng, 16), bson.Binary.SUBTYPE_MD5),
        thumbnail: new bson.Binary(bytes(rng, 8192), 0),
        chunks: Array.from({ length: chunks }, () => new bson.Binary(bytes(rng, chunkSize), 0)),
        keys: Array.from({ length: records }, () => ({ uuid: new bson.Binary(bytes(rng, 16), bson.Binary.SUBTYPE_UUID),
            sha256: new bson.Binary(bytes(rng, 32), 0), token: new bson.Binary(bytes(rng, int(rng, 8, 24)), 0) })),
    };
}

module.exports = { twoCollections, changingShapes, idKeyedMaps, sparseFields, wideDocument, featureCollection, track, doubleArray, int32Array, apiResponse, tweet, catalog,
    logEvents, smallDocsArray, binaryDocument, localText };
