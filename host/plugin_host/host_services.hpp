// The host's own services, registered in the Registry like a plugin's, so a plugin's
// call_service is one lookup whoever provides the name (docs/plugin-guide.md#host-services):
//  - store.insert, store.find, store.count, store.update, store.upsert, store.change_state,
//    store.restore, store.purge, store.collection_exists, and the admin side of indexes
//    (store.indexes, store.add_index, store.drop_index, store.explain): the calling project's
//    document store, in the calling plugin's own namespace of collections
//    (store/store_service.hpp);
//  - mail.send: a mail through the host's Mailer (mail/mail_service.hpp);
//  - projects.list: {"projects": [<id>, ...]}, every project whose store is open;
//  - server.url: {"url": "http://<host>:<port>"}, where the daemon listens (the port it was
//    given, or the one it got for server.port = 0); INTERNAL_ERROR until it listens;
//  - audit.list: {"limit", "offset"} -> {"entries", "total"}, the calling project's audit log
//    (audit/audit_trail.hpp), newest first.
// Thread-safety: the services are safe from any thread, as the parts of `context` they use are.
#pragma once

#include "opbase/status.hpp"
#include "plugin_host/host_context.hpp"
#include "plugin_host/registry.hpp"

namespace opbase::host {

// Registers every host service in `registry`. They read the daemon's parts from `context` at
// each call (a part that is nullptr, as in some tests, fails the call with INTERNAL_ERROR), so
// `context` must outlive every call.
Status register_host_services(Registry& registry, const HostContext& context);

}  // namespace opbase::host
