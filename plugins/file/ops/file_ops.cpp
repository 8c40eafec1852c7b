#include "ops/file_ops.hpp"

#include "housekeeping/file_purge.hpp"
#include "opbase/crypto.hpp"
#include "opbase/field_error.hpp"
#include "opbase/hex.hpp"
#include "opbase/iso_time.hpp"
#include "opbase/store_access.hpp"
#include "records/file_record.hpp"
#include "requests/file_changes.hpp"
#include "requests/file_fields.hpp"
#include "requests/upload_request.hpp"
#include "urls/signed_url.hpp"

namespace opbase::file {
namespace {

using nlohmann::json;

constexpr size_t kMaxReason = 1024;

// The same answer for a file that does not exist and one the caller may not reach, so keys
// cannot be probed.
Status no_such_file() {
  return field_error("_key", "no file with this _key", {{"reason", "not_found"}});
}

Status upload_refused(std::string message, std::string_view reason, json extra = json::object()) {
  extra["field"] = "_key";
  extra["reason"] = reason;
  return Status::validation(std::move(message), std::move(extra));
}

bool is_admin(const Request& request) {
  const json& claims = request.user_claims();
  if (!claims.is_object()) return false;
  const auto roles = claims.find("roles");
  if (roles == claims.end() || !roles->is_array()) return false;
  for (const json& role : *roles) {
    if (role == "admin") return true;
  }
  return false;
}

int64_t seconds(int64_t ms) { return ms / 1000; }

}  // namespace

Result<Reply> FileOps::presign_upload(const Request& request) const {
  const int64_t now_ms = host_.now_ms();
  auto limits = limits_.of(request.project_id, now_ms);
  if (!limits) return limits.status();
  auto file = read_upload_request(request.body, limits->max_size);
  if (!file) return file.status();
  const std::string project(request.project_id), owner(request.user_id);
  if (Status charged = ledger_.charge(project, owner, file->size, limits->quota); !charged) {
    return charged;
  }

  const std::string key = time_hex(now_ms) + random_hex(10);
  const std::string nonce = random_hex(16);
  json record = pending_record(*file, key, owner, iso_time(now_ms), sha256_hex(nonce));
  if (Status kept = store_.insert(project, {"files", {record}}); !kept) {
    ledger_.release(project, owner, file->size, 1);
    return kept;
  }
  const int64_t expires_s = seconds(now_ms) + settings_.upload_url_ttl_s;
  auto ticket =
      backend_.upload_ticket(file_ref(project, record), nonce, seconds(now_ms), expires_s);
  if (!ticket) return ticket.status();  // the pending record is purged in time, quota and all
  return Reply(json{{"_key", key},
                    {"upload_url", ticket->url},
                    {"method", "PUT"},
                    {"headers", ticket->headers},
                    {"expires_at", iso_time(expires_s * 1000)}});
}

Result<json> FileOps::reachable(const Request& request, bool change) const {
  auto key = read_file_key(request.body);
  if (!key) return key.status();
  auto found = find_by_key(store_, request.project_id, "files", *key);
  if (!found) return found.status();
  if (!*found) return no_such_file();
  const Reach reach = reach_of(**found, request.user_id, is_admin(request));
  if (reach == Reach::kNone || (change && reach != Reach::kChange)) return no_such_file();
  return std::move(**found);
}

Result<Reply> FileOps::answer(std::string_view project, const json& stored) const {
  json record = client_record(stored);
  const FileRef ref = file_ref(project, stored);
  if (record["state"] == "ready") {
    const int64_t now_s = seconds(host_.now_ms());
    auto url = backend_.download_url(ref, now_s, now_s + settings_.download_url_ttl_s);
    if (!url) return url.status();
    record["download_url"] = std::move(*url);
  }
  if (record["public"] == true) {
    auto base = base_url_();
    if (!base) return base.status();
    record["public_url"] = *base + public_target(project, ref.key);
  }
  return Reply(std::move(record));
}

// The checks of finalize on a pending record; the stored record once ready.
Result<json> FileOps::finalized(std::string_view project, const json& stored) const {
  const FileRef ref = file_ref(project, stored);
  auto bytes = backend_.stored(ref);
  if (!bytes) return bytes.status();
  if (!*bytes) return upload_refused("no bytes were uploaded for this file", "missing");
  if ((*bytes)->size != ref.size) {
    return upload_refused("the uploaded bytes are not the declared size", "size_mismatch",
                          {{"expected_size", ref.size}, {"stored_size", (*bytes)->size}});
  }
  // The local route hashes the bytes as it writes them; an S3 store says so when it knows.
  std::optional<std::string> digest = (*bytes)->sha256;
  if (const auto kept = stored.find("stored");
      !digest && kept != stored.end() && kept->is_object() && kept->contains("sha256")) {
    digest = kept->value("sha256", "");
  }
  if (ref.sha256 && digest && *digest != *ref.sha256) {
    return upload_refused("the uploaded bytes do not have the declared sha256", "sha256_mismatch");
  }
  store::Change change = set_fields({{"state", "ready"},
                                     {"_modified_at", iso_time(host_.now_ms())},
                                     {"sha256", ref.sha256 ? json(*ref.sha256)
                                                : digest   ? json(*digest)
                                                           : json()}});
  change.unset = {"upload_nonce"};
  store::Events events{"", "file.uploaded", "", ""};
  auto updated = update_where(store_, project, "files", {{"_key", ref.key}, {"state", "pending"}},
                              std::move(change), events);
  if (!updated) return updated.status();
  if (!updated->documents.empty()) return std::move(updated->documents.front());
  // Another call finalized or failed it in between: answer what it is now.
  auto now = find_by_key(store_, project, "files", ref.key);
  if (!now) return now.status();
  if (!*now) return no_such_file();
  return std::move(**now);
}

Result<Reply> FileOps::finalize_upload(const Request& request) const {
  auto stored = reachable(request, /*change=*/true);
  if (!stored) return stored.status();
  const std::string state = stored->value("state", "");
  if (state == "failed") return upload_refused("this upload was reported failed", "failed");
  if (state == "ready") return answer(request.project_id, *stored);
  auto ready = finalized(request.project_id, *stored);
  if (!ready) return ready.status();
  if (ready->value("state", "") == "failed") {
    return upload_refused("this upload was reported failed", "failed");
  }
  return answer(request.project_id, *ready);
}

Result<Reply> FileOps::report_upload_failure(const Request& request) const {
  const auto reason = request.body.find("reason");
  if (reason == request.body.end() || !reason->is_string() ||
      reason->get_ref<const std::string&>().empty() ||
      reason->get_ref<const std::string&>().size() > kMaxReason) {
    return field_error("reason", "reason must be a text of 1 to 1024 bytes", {{"reason", "type"}});
  }
  auto stored = reachable(request, /*change=*/true);
  if (!stored) return stored.status();
  const std::string state = stored->value("state", "");
  if (state == "ready") {
    return upload_refused("this file is uploaded already; delete it instead", "ready");
  }
  if (state == "failed") return answer(request.project_id, *stored);
  store::Change change = set_fields({{"state", "failed"},
                                     {"failure_reason", *reason},
                                     {"bytes_rechecked", false},
                                     {"_modified_at", iso_time(host_.now_ms())}});
  change.unset = {"upload_nonce", "stored"};
  const std::string key = stored->value("_key", "");
  auto updated = update_where(store_, request.project_id, "files",
                              {{"_key", key}, {"state", "pending"}}, std::move(change));
  if (!updated) return updated.status();
  if (updated->documents.empty()) return report_upload_failure(request);  // it changed: look again
  const FileRef ref = file_ref(request.project_id, *stored);
  if (Status removed = backend_.remove(ref); !removed) {
    host_.warn("file: removing the bytes of failed upload " + key + ": " + removed.message());
  }
  ledger_.release(request.project_id, stored->value("_userkey", ""), ref.size, 0);
  return answer(request.project_id, updated->documents.front());
}

Result<Reply> FileOps::get(const Request& request) const {
  auto stored = reachable(request, /*change=*/false);
  if (!stored) return stored.status();
  return answer(request.project_id, *stored);
}

Result<Reply> FileOps::update(const Request& request) const {
  auto stored = reachable(request, /*change=*/true);
  if (!stored) return stored.status();
  auto changes = read_file_changes(request.body);
  if (!changes) return changes.status();
  (*changes)["_modified_at"] = iso_time(host_.now_ms());
  auto updated = update_where(store_, request.project_id, "files",
                              {{"_key", stored->value("_key", "")}}, set_fields(*changes));
  if (!updated) return updated.status();
  if (updated->documents.empty()) return no_such_file();  // deleted in between
  return answer(request.project_id, updated->documents.front());
}

Result<Reply> FileOps::remove(const Request& request) const {
  auto stored = reachable(request, /*change=*/true);
  if (!stored) return stored.status();
  const std::string key = stored->value("_key", "");
  // Archived first (gone for the ops, file.deleted raised), then the bytes, then deleted: a
  // crash in between leaves an archived record, whose bytes the purge removes.
  store::StateRequest gone{"files",
                           {},
                           match_of({{"_key", key}}),
                           store::State::kActive,
                           store::State::kArchived,
                           "delete",
                           host_.now_ms(),
                           store::Events{"", "file.deleted", "", ""}};
  auto moved = store_.change_state(request.project_id, gone);
  if (!moved) return moved.status();
  if (moved->keys.empty()) return no_such_file();  // another delete won
  if (Status finished =
          finish_removal(store_, backend_, request.project_id, *stored, host_.now_ms());
      !finished) {
    host_.warn("file: removing the bytes of deleted file " + key + ": " + finished.message());
  }
  const bool held_bytes = stored->value("state", "") != "failed";
  ledger_.release(request.project_id, stored->value("_userkey", ""),
                  held_bytes ? stored->value("size", int64_t{0}) : 0, 1);
  return Reply(json{{"deleted", true}});
}

Result<Reply> FileOps::settings(const Request& request) const {
  auto view = limits_.admin_view(request.project_id, host_.now_ms());
  if (!view) return view.status();
  return Reply(std::move(*view));
}

Result<Reply> FileOps::change_settings(const Request& request) const {
  auto changes = StoredSettings::changes_in(request.body);
  if (!changes) return changes.status();
  auto view = limits_.change(request.project_id, *changes, host_.now_ms());
  if (!view) return view.status();
  return Reply(std::move(*view));
}

}  // namespace opbase::file
