// Webhooks: the endpoints (URL, events, on or off), made and rotated with their secret shown
// once, and the delivery log with each message's attempts and a resend.
import { field, h, pager, replace, statusLine, table, when } from "../dom.js";

const kEvents = ["document.created", "document.updated", "document.deleted", "user.signedup",
  "user.signedin", "user.signedout", "file.uploaded", "file.deleted"];
const kLimit = 20;

export async function render(api, page, context) {
  const { element: message, fail } = statusLine();
  // A secret is shown once, when made: copy it now, it is not shown again.
  const secretBox = h("div", { class: "secret", id: "webhook-secret", hidden: true });
  const showSecret = (what, secret) => {
    secretBox.hidden = false;
    replace(secretBox, h("p", {}, `${what}. Its signing secret, shown this once:`), h("code", {}, secret));
  };

  const url = h("input", { type: "url", name: "url", required: true, placeholder: "https://example.com/hooks" });
  const boxes = kEvents.map((e) => h("input", { type: "checkbox", name: "events", value: e, checked: e.startsWith("document.") }));
  const create = h("form", { class: "create", id: "webhook-create", onsubmit: async (event) => {
    event.preventDefault();
    try {
      const events = boxes.filter((b) => b.checked).map((b) => b.value);
      const { data } = await api.call("webhooks.endpoint.create", { url: url.value.trim(), events });
      url.value = "";
      await draw();
      showSecret(`Endpoint ${data.id} made`, data.secret);
    } catch (e) {
      fail(e);
    }
  } }, h("h3", {}, "New endpoint"), field("URL", url),
  h("fieldset", {}, h("legend", {}, "Events"), boxes.map((b) => h("label", { class: "check" }, b, b.value))),
  h("button", { type: "submit" }, "Create endpoint"));

  const endpointsBox = h("div", { id: "endpoints" });
  const messagesBox = h("div", { id: "messages" });

  async function draw() {
    const { data } = await api.call("webhooks.endpoint.list");
    replace(endpointsBox, table([
      { title: "id", value: (e) => e.id },
      { title: "URL", value: (e) => e.url },
      { title: "events", value: (e) => e.events.join(", ") },
      { title: "state", value: (e) => (e.enabled ? "on" : "off") },
      { title: "", value: (e) => h("span", { class: "row-actions" },
        h("button", { type: "button", class: "secondary", onclick: () => context.change("webhooks.endpoint.update", { id: e.id, enabled: !e.enabled }, `Endpoint ${e.id} switched ${e.enabled ? "off" : "on"}.`) }, e.enabled ? "Switch off" : "Switch on"),
        h("button", { type: "button", class: "secondary", onclick: async () => {
          try {
            const { data: rotated } = await api.call("webhooks.endpoint.rotate_secret", { id: e.id });
            showSecret(`Secret of ${e.id} rotated (the old one signs too until ${when(rotated.previous_secret_until_ms)})`, rotated.secret);
          } catch (err) {
            fail(err);
          }
        } }, "Rotate secret"),
        h("button", { type: "button", class: "danger", onclick: () => context.change("webhooks.endpoint.delete", { id: e.id }, `Endpoint ${e.id} deleted.`) }, "Delete")) },
    ], data, { empty: "No endpoint yet." }));
  }

  function attempts(m) {
    if (!m.attempts.length) return "none yet";
    return h("ol", { class: "attempts" }, m.attempts.map((a) =>
      h("li", {}, `${when(a.time_ms)} · ${a.status || "no answer"} · ${a.latency_ms} ms${a.error ? ` · ${a.error}` : ""}`)));
  }

  async function loadMessages(offset = 0) {
    try {
      const { data, meta } = await api.call("webhooks.message.list", { limit: kLimit, offset });
      replace(messagesBox, table([
        { title: "message", value: (m) => m.id },
        { title: "endpoint", value: (m) => m.endpoint },
        { title: "event", value: (m) => m.type },
        { title: "state", value: (m) => m.state },
        { title: "attempts", value: attempts },
        { title: "", value: (m) => h("button", { type: "button", class: "secondary", onclick: () => context.change("webhooks.message.resend", { id: m.id }, `Message ${m.id} will be sent again.`) }, "Resend") },
      ], data, { empty: "No delivery yet." }), pager(offset, kLimit, meta.total, loadMessages));
    } catch (e) {
      fail(e);
    }
  }

  page.append(message, secretBox, endpointsBox, create, h("h3", {}, "Deliveries"),
    h("button", { type: "button", class: "secondary", id: "refresh-deliveries", onclick: () => loadMessages(0) }, "Refresh"), messagesBox);
  await draw();
  await loadMessages(0);
}
