# Install rules for running opbase as a service (the production config, the systemd unit, the
# docs) and the Debian package's maintainer scripts and conffiles. Included from the top
# CMakeLists.txt after GNUInstallDirs and before packaging/cpack.cmake (which includes CPack).
#
# The files in packaging/ are written for the Debian layout of the /usr prefix (/usr/bin,
# /etc/opbase, /usr/lib/<multiarch>/opbase/plugins). The installed copies are made from them
# with the paths of this build's install prefix, so `cmake --install` to any prefix installs a
# set that agrees with the paths compiled into the binary; for /usr they are the same text.

set(OPBASE_CONF_INSTALL_DIR "${CMAKE_INSTALL_FULL_SYSCONFDIR}/opbase")
set(_opbase_gen "${CMAKE_BINARY_DIR}/packaging")
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  "${CMAKE_CURRENT_LIST_DIR}/opbase.production.properties"
  "${CMAKE_CURRENT_LIST_DIR}/opbase.service")

# /etc/opbase/opbase.properties as it is: it names no install folder (the daemon finds its
# plugins from its own folder), so the same text serves any prefix.
configure_file("${CMAKE_CURRENT_LIST_DIR}/opbase.production.properties"
  "${_opbase_gen}/opbase.properties" COPYONLY)

# The unit, with this build's binary and config paths.
file(READ "${CMAKE_CURRENT_LIST_DIR}/opbase.service" _opbase_text)
string(REPLACE "/usr/bin/opbase" "${CMAKE_INSTALL_FULL_BINDIR}/opbase" _opbase_text "${_opbase_text}")
string(REPLACE "/etc/opbase/" "${OPBASE_CONF_INSTALL_DIR}/" _opbase_text "${_opbase_text}")
file(CONFIGURE OUTPUT "${_opbase_gen}/opbase.service" CONTENT "${_opbase_text}" @ONLY)

# The config is a conffile in the Debian package. The folder is the one compiled into the
# binary (${CMAKE_INSTALL_FULL_SYSCONFDIR}/opbase: /etc/opbase for the /usr prefix), except when
# `cmake --install --prefix DIR` picks another prefix at install time: then DIR/etc/opbase, so a
# staging install never writes outside DIR. An existing file is kept; the new text goes beside it
# as opbase.properties.new. (file(INSTALL) adds DESTDIR itself, which CPack's staging uses.)
install(CODE "
  if(CMAKE_INSTALL_PREFIX STREQUAL \"${CMAKE_INSTALL_PREFIX}\")
    set(_opbase_etc \"${OPBASE_CONF_INSTALL_DIR}\")
  else()
    set(_opbase_etc \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_SYSCONFDIR}/opbase\")
  endif()
  if(EXISTS \"\$ENV{DESTDIR}\${_opbase_etc}/opbase.properties\")
    message(STATUS \"Keeping \$ENV{DESTDIR}\${_opbase_etc}/opbase.properties; the new one is opbase.properties.new\")
    file(INSTALL DESTINATION \"\${_opbase_etc}\" TYPE FILE RENAME opbase.properties.new
      FILES \"${_opbase_gen}/opbase.properties\")
  else()
    file(INSTALL DESTINATION \"\${_opbase_etc}\" TYPE FILE FILES \"${_opbase_gen}/opbase.properties\")
  endif()
" COMPONENT daemon)

# <prefix>/lib/systemd/system: /usr/lib/systemd/system for the package (systemd searches it;
# on Debian 12 /lib is /usr/lib).
install(FILES "${_opbase_gen}/opbase.service" DESTINATION lib/systemd/system COMPONENT daemon)

install(FILES
  "${CMAKE_CURRENT_LIST_DIR}/debian/copyright"
  "${PROJECT_SOURCE_DIR}/docs/api.md"
  "${PROJECT_SOURCE_DIR}/docs/configuration.md"
  "${PROJECT_SOURCE_DIR}/docs/operations.md"
  "${PROJECT_SOURCE_DIR}/docs/plugin-guide.md"
  "${PROJECT_SOURCE_DIR}/docs/query.md"
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT daemon)

# Every Debian package has its copyright file in its own doc folder.
install(FILES "${CMAKE_CURRENT_LIST_DIR}/debian/copyright"
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/opbase-dev COMPONENT sdk)

# Debian maintainer scripts (packaging/debian) and the conffile list, of the daemon's package.
file(CONFIGURE OUTPUT "${_opbase_gen}/conffiles"
  CONTENT "${OPBASE_CONF_INSTALL_DIR}/opbase.properties\n" @ONLY)
set(CPACK_DEBIAN_OPBASE_PACKAGE_CONTROL_EXTRA
  "${CMAKE_CURRENT_LIST_DIR}/debian/postinst"
  "${CMAKE_CURRENT_LIST_DIR}/debian/postrm"
  "${_opbase_gen}/conffiles")
# Scripts 0755, conffiles 0644, as dpkg expects.
set(CPACK_DEBIAN_OPBASE_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
# postinst runs groupadd/useradd (package passwd); dpkg-shlibdeps adds the libraries. The auth
# plugin reads cracklib's dictionary, which no library brings: cracklib-runtime.
set(CPACK_DEBIAN_OPBASE_PACKAGE_DEPENDS "passwd, cracklib-runtime")
# The ai plugin's offline translation runs Apertium's programs and language pairs; without them
# ai.translate answers PROCESSING_FAILED "unavailable" and every other op works.
set(CPACK_DEBIAN_OPBASE_PACKAGE_RECOMMENDS
  "apertium, apertium-eng-cat, apertium-spa-cat, apertium-fra-cat, apertium-por-cat, apertium-cat-ita")
