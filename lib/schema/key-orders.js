'use strict';

// The order a schema codec's generated reader expects an object node's keys in,
// learnt from the documents. The reader first reads a document's keys in the
// order it expects, where each may be left out; a document in another order is
// read by the node's unordered reader (a lookup per key, the object built key by
// key), which reports its keys here. Orders that fit into one list (each
// document's keys in that list's order) are merged into it; once RELEARN_AFTER
// documents in a row held no key the list lacks, in its order, the codec
// generates its reader again with the list's order (keys no document held yet
// after it, in the schema's order), up to MAX_GENERATIONS times. A schema that
// puts an optional field last when the documents hold it in the middle (sparse_fields:
// address after age; api_statuses: retweeted_status before retweet_count) had
// every such document read key by key. Documents whose orders do not settle into
// one list (shape_changes: random keys in random orders) never make RELEARN_AFTER
// in a row, and after GIVE_UP_AFTER of them the learner stops looking.

const { mergeKeyLists } = require('../shape-reader');

const RELEARN_AFTER = 8;
const MAX_GENERATIONS = 8;
const GIVE_UP_AFTER = 1024;

// what one object node's documents (a reader's: nodes of one signature share it) taught
class Learner {
    constructor(orders) {
        this.orders = orders;
        // the keys in the order documents held them, or null before the first
        this.keys = null;
        // this.keys.length when the reader was last generated
        this.used = 0;
        // documents in a row that the list took as it is
        this.inOrder = 0;
        // documents since the reader was last generated
        this.seen = 0;
    }

    // a document read by the unordered reader, its keys names[order[0]], names[order[1]], ...
    learn(names, order) {
        if (this.orders.generations >= MAX_GENERATIONS || ++this.seen > GIVE_UP_AFTER) return;
        const keys = order.map((k) => names[k]);
        const steps = this.keys === null ? null : mergeKeyLists(this.keys, keys);
        if (this.keys === null || steps === null || steps.length > this.keys.length) {
            // the first, an order the list does not take, or keys it lacked
            if (this.keys === null) this.keys = keys;
            else if (steps !== null) this.keys = steps.map(([i, j]) => (i >= 0 ? this.keys[i] : keys[j]));
            this.inOrder = 0;
        } else if (++this.inOrder >= RELEARN_AFTER && this.keys.length > this.used) {
            this.orders.stale = true;
        }
    }
}

// a codec's learnt orders, by reader signature (lib/schema/generate.js)
class KeyOrders {
    constructor() {
        this.learners = new Map();
        // true when a learnt order is worth a new reader
        this.stale = false;
        this.generations = 0;
    }

    learner(sig) {
        let l = this.learners.get(sig);
        if (l === undefined) {
            l = new Learner(this);
            this.learners.set(sig, l);
        }
        return l;
    }

    // props (a node's properties) in the order to read them
    ordered(sig, props) {
        const l = this.learners.get(sig);
        if (l === undefined || l.keys === null) return props;
        const rank = new Map(l.keys.map((k, i) => [k, i]));
        const known = props.filter((p) => rank.has(p.name)).sort((a, b) => rank.get(a.name) - rank.get(b.name));
        return known.concat(props.filter((p) => !rank.has(p.name)));
    }

    // called before the reader is generated again
    regenerated() {
        this.stale = false;
        this.generations++;
        for (const l of this.learners.values()) {
            if (l.keys !== null) l.used = l.keys.length;
            l.inOrder = 0;
            l.seen = 0;
        }
    }
}

module.exports = { KeyOrders, MAX_GENERATIONS };
