// client.collection(name): one method per datastore op on one collection
// (docs/api.md#datastore-ops), called as the signed-in user (or without a token, which the
// collection's rules may allow: docs/api.md#who-may-read-and-change-a-document). Each resolves to the op's `data`,
// except find, whose `meta` holds the pagination: it resolves to {data, meta}.

export class Collection {
  #call;
  #realtime;

  constructor(call, name, realtime) {
    if (typeof name !== 'string' || !name) throw new TypeError('opbase: a collection name is required');
    this.#call = call;
    this.#realtime = realtime;
    this.name = name;
  }

  /**
   * A live query (docs/api.md#realtime): `onEvent({type, id, key, collection, document})` for
   * each created, updated, enter, leave, archived, restored and deleted document it may see, and
   * `reset` when the events it missed are gone (fetch again). `options`: {filter, project,
   * keys_only}. Resolves to the query, whose unsubscribe() stops it. Over the client's one
   * stream, reconnected and resumed by itself.
   */
  subscribe(match, onEvent, options = {}) {
    return this.#realtime.subscribe({ ...options, collection: this.name, match: match ?? {} }, onEvent);
  }

  #op(verb, params, access) {
    return this.#call(`collection.${verb}`, { ...params, collection: this.name }, access);
  }

  /** collection.find: {match, filter, sort, limit, offset, lookup, project}; match defaults to {}. */
  async find(params = {}) {
    const { data, meta } = await this.#op('find', { match: {}, ...params }, { user: true });
    return { data, meta };
  }

  /** The first document of a find, or null. */
  async findOne(params = {}) {
    const { data } = await this.find({ ...params, limit: 1 });
    return data[0] ?? null;
  }

  /** collection.insert: one document or an array; resolves to the inserted documents. */
  async insert(data, params = {}) {
    return (await this.#op('insert', { ...params, data }, { user: true })).data;
  }

  /** collection.update: {data} with _key, an array of such, or {match, data}. */
  async update(params) {
    return (await this.#op('update', params, { user: true })).data;
  }

  /** collection.upsert: {match, update, insert}; resolves to {data, meta} (meta.upserted). */
  async upsert(params) {
    const { data, meta } = await this.#op('upsert', params, { user: true });
    return { data, meta };
  }

  /** collection.count: the number of documents matching `match` (default all of yours). */
  async count(match = {}) {
    return (await this.#op('count', { match }, { user: true })).data.count;
  }

  /** collection.delete: resolves to {_ref}, which restore takes. */
  async delete(match) {
    return (await this.#op('delete', { match }, { user: true })).data;
  }

  /** collection.archive: resolves to {_ref}. */
  async archive(match) {
    return (await this.#op('archive', { match }, { user: true })).data;
  }

  /** collection.restore: brings back what a delete or archive with this _ref took. */
  async restore(ref) {
    return (await this.#op('restore', { match: { _ref: ref } }, { user: true })).data;
  }

  /** collection.index.list (admin): the indexes and the fields queries were noticed for. */
  async indexes() {
    return (await this.#op('index.list', {}, { admin: true })).data;
  }

  /** collection.index.add (admin). */
  async addIndex(field) {
    return (await this.#op('index.add', { field }, { admin: true })).data;
  }

  /** collection.index.drop (admin). */
  async dropIndex(field) {
    return (await this.#op('index.drop', { field }, { admin: true })).data;
  }

  /** collection.rules.get (admin): who may read, create, update and delete. */
  async rules() {
    return (await this.#op('rules.get', {}, { admin: true })).data.rules;
  }

  /** collection.rules.update (admin): any of {read, create, update, delete}; null is the default. */
  async setRules(rules) {
    return (await this.#op('rules.update', { rules }, { admin: true })).data.rules;
  }

  /** collection.explain (admin): how a find (or, with count: true, a count) is read. */
  async explain(params = {}) {
    return (await this.#op('explain', params, { admin: true })).data;
  }
}
