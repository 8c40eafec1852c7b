// client.webhooks: the admin ops that manage webhook endpoints and their messages
// (docs/api.md#webhooks), called with the server admin key or an administrator's session.

export class Webhooks {
  #call;

  constructor(call) {
    this.#call = call;
    const admin = (op, params) => this.#call(op, params, { admin: true }).then((answer) => answer.data);
    this.endpoints = Object.freeze({
      /** webhooks.endpoint.create: {url, events, enabled, signature_content, description, secret}. */
      create: (params) => admin('webhooks.endpoint.create', params),
      /** webhooks.endpoint.update: {id, ...fields}. */
      update: (params) => admin('webhooks.endpoint.update', params),
      /** webhooks.endpoint.delete. */
      delete: (id) => admin('webhooks.endpoint.delete', { id }),
      /** webhooks.endpoint.list: the endpoints, without secrets. */
      list: () => admin('webhooks.endpoint.list', {}),
      /** webhooks.endpoint.rotate_secret: {id, grace_s}. */
      rotateSecret: (params) => admin('webhooks.endpoint.rotate_secret', params),
    });
    this.messages = Object.freeze({
      /** webhooks.message.list: {endpoint, state, limit, offset}; resolves to {data, meta}. */
      list: async (params = {}) => {
        const { data, meta } = await this.#call('webhooks.message.list', params, { admin: true });
        return { data, meta };
      },
      /** webhooks.message.resend. */
      resend: (id) => admin('webhooks.message.resend', { id }),
    });
  }
}
