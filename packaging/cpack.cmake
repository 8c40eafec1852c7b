# Debian packages through CPack, the Debian way: `make package` builds, in build/,
#   opbase_<version>_<arch>.deb      the daemon, the shipped plugins and the two SDK examples
#   opbase-dev_<version>_<arch>.deb  the plugin SDK: headers, static libraries, CMake package
# The components of the install rules (daemon, examples, sdk) make the two packages.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "opbase")
set(CPACK_PACKAGE_VENDOR "opbase")
set(CPACK_PACKAGE_CONTACT "opbase maintainers <maintainers@opbase.invalid>")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_COMPONENT_DAEMON_GROUP "opbase")
set(CPACK_COMPONENT_EXAMPLES_GROUP "opbase")
set(CPACK_COMPONENT_SDK_GROUP "dev")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "net")

# Only what is built, and what is not yet (README.md's table).
set(CPACK_DEBIAN_OPBASE_PACKAGE_NAME "opbase")
set(CPACK_DEBIAN_OPBASE_DESCRIPTION "self-hosted backend platform: auth, JSON documents, files, AI, vectors
One HTTP endpoint with JSON bodies for web and mobile apps: sign-up and sign-in with
ES256 id tokens and refresh tokens, a schema-free JSON document store (embedded SQLite,
or MongoDB), files on disk or in an S3-compatible store, signed webhooks to your own
services, AI text operations offline or through an OpenAI-compatible model server,
semantic search over vector records, a captcha for anonymous inserts and a management
console. Service areas are plugins, switched on per deployment. Sign-in through OAuth
and OpenID providers is not built yet.")
set(CPACK_DEBIAN_OPBASE_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_OPBASE_PACKAGE_SECTION "net")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME "opbase-dev")
set(CPACK_DEBIAN_DEV_DESCRIPTION "opbase plugin SDK: headers, libraries, CMake package
The C ABI header and the C++ SDK to write op plugins for the opbase daemon, with a fake
host for plugin unit tests and the CMake package (find_package(opbase),
opbase_add_plugin()).")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION "libdevel")
# The SDK's CMake package finds nlohmann_json, OpenSSL (its library links libcrypto) and libcurl
# (the static opbase::sdk_http calls it, so a plugin linking that links libcurl); plugins need
# the daemon to load them.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "opbase (= ${PROJECT_VERSION}), nlohmann-json3-dev (>= 3.10), libssl-dev (>= 3), libcurl4-openssl-dev (>= 7.85), cmake (>= 3.25), g++ | c++-compiler")
# The package installs under /usr, and the binary has its default config file compiled in from
# CMAKE_INSTALL_PREFIX: package only a tree configured with -DCMAKE_INSTALL_PREFIX=/usr, or the
# installed daemon would read /usr/local/etc. cpack stops with a message otherwise.
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
file(CONFIGURE OUTPUT "${CMAKE_BINARY_DIR}/packaging/cpack_project_config.cmake" CONTENT [[
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT "@CMAKE_INSTALL_PREFIX@" STREQUAL "${CPACK_PACKAGING_INSTALL_PREFIX}")
  message(FATAL_ERROR "opbase: this build tree has CMAKE_INSTALL_PREFIX=@CMAKE_INSTALL_PREFIX@, "
    "but the Debian package installs under ${CPACK_PACKAGING_INSTALL_PREFIX}. Configure with "
    "-DCMAKE_INSTALL_PREFIX=${CPACK_PACKAGING_INSTALL_PREFIX}, build, then run cpack again.")
endif()
]] @ONLY)
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_BINARY_DIR}/packaging/cpack_project_config.cmake")
include(CPack)
