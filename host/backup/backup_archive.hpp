// The backup file of the embedded store: a tar archive (POSIX pax) compressed with zstd, written
// and read with libarchive. Its first entry is "manifest.json" (backup_manifest.hpp); then come
// the files the manifest lists, each a plain file at the top level, in the manifest's order.
// Reading is strict: the archive must hold exactly the manifest's files, regular files with
// permitted names (no paths, no links, no folders), each of the size and SHA-256 the manifest
// gives. Functions, no state: safe from any thread on distinct files.
#pragma once

#include <string>

#include "backup/backup_manifest.hpp"
#include "opbase/status.hpp"

namespace opbase::host {

// The size and SHA-256 of `<folder>/<name>`, as the manifest lists it.
Result<BackupFile> describe_backup_file(const std::string& folder, const std::string& name);

// Writes the archive to `fd`, which stays open (the caller syncs and closes it): the manifest,
// then each of its files read from `folder`. INTERNAL_ERROR naming the file on a failure.
Status write_backup_archive(int fd, const BackupManifest& manifest, const std::string& folder);

// Reads the archive at `archive_path` into `folder`, an empty folder the caller made and removes
// on a failure: each file is written there (mode 0600) and synced. Answers the checked manifest;
// VALIDATION_ERROR saying what is wrong with a file that is not a whole, intact backup.
Result<BackupManifest> extract_backup_archive(const std::string& archive_path,
                                              const std::string& folder);

}  // namespace opbase::host
