# Debian package through CPack: `make package` builds build/opbase_<version>_<arch>.deb.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "opbase")
set(CPACK_PACKAGE_VENDOR "opbase")
set(CPACK_PACKAGE_CONTACT "opbase maintainers <maintainers@opbase.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Self-hosted backend platform: auth, documents, files, vectors, AI, webhooks")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
# The package installs under /usr, and the binary has its default config file and plugin folder
# compiled in from CMAKE_INSTALL_PREFIX: package only a tree configured with
# -DCMAKE_INSTALL_PREFIX=/usr, or the installed daemon would look under /usr/local. cpack stops
# with a message otherwise.
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
