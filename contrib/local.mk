# contrib/: what a server installs beside the programs (README.md,
# "Installing on a server"): the systemd unit, its sysusers.d and
# tmpfiles.d files, and the example configuration.
#
# The unit and the two files are made here, not by config.status, so that
# every path is expanded in full (`@sbindir@` from configure alone reads
# "${exec_prefix}/sbin") and follows a `make prefix=...` (the autoconf
# manual's "Installation Directory Variables").  They depend on
# contrib/paths.stamp, which holds the values this make run substitutes
# and is rewritten only when one differs from the last run's, so a
# `make install prefix=/x` after a plain `make` makes them again, naming
# /x, and a make with the same values makes nothing.
CONTRIB_EDIT = sed \
	-e 's|@bindir[@]|$(bindir)|g' \
	-e 's|@sbindir[@]|$(sbindir)|g' \
	-e 's|@sysconfdir[@]|$(sysconfdir)|g' \
	-e 's|@localstatedir[@]|$(localstatedir)|g' \
	-e 's|@systemdunitdir[@]|$(systemdunitdir)|g' \
	-e 's|@PBEM_USER[@]|$(PBEM_USER)|g' \
	-e 's|@PBEM_MAX_CONNECTIONS[@]|$(PBEM_MAX_CONNECTIONS)|g' \
	-e 's|@PBEM_HTTP_THREADS[@]|$(PBEM_HTTP_THREADS)|g' \
	-e 's|@PBEM_LIMIT_NOFILE[@]|$(PBEM_LIMIT_NOFILE)|g'
CONTRIB_VALUES = bindir=$(bindir) sbindir=$(sbindir) \
	sysconfdir=$(sysconfdir) localstatedir=$(localstatedir) \
	systemdunitdir=$(systemdunitdir) PBEM_USER=$(PBEM_USER) \
	PBEM_MAX_CONNECTIONS=$(PBEM_MAX_CONNECTIONS) \
	PBEM_HTTP_THREADS=$(PBEM_HTTP_THREADS) \
	PBEM_LIMIT_NOFILE=$(PBEM_LIMIT_NOFILE)
contrib/paths.stamp: contrib-values-check
	@:
contrib-values-check:
	@$(MKDIR_P) contrib && \
	    printf '%s\n' "$(CONTRIB_VALUES)" >contrib/paths.stamp.tmp && \
	    if cmp -s contrib/paths.stamp.tmp contrib/paths.stamp; then \
	        rm -f contrib/paths.stamp.tmp; \
	    else mv contrib/paths.stamp.tmp contrib/paths.stamp; fi
.PHONY: contrib-values-check
contrib/pbemd.service: $(srcdir)/contrib/pbemd.service.in contrib/paths.stamp Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib && \
	    $(CONTRIB_EDIT) $(srcdir)/contrib/pbemd.service.in >$@.tmp && \
	    mv $@.tmp $@
contrib/pbem.sysusers: $(srcdir)/contrib/pbem.sysusers.in contrib/paths.stamp Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib && \
	    $(CONTRIB_EDIT) $(srcdir)/contrib/pbem.sysusers.in >$@.tmp && \
	    mv $@.tmp $@
contrib/pbem.tmpfiles: $(srcdir)/contrib/pbem.tmpfiles.in contrib/paths.stamp Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib && \
	    $(CONTRIB_EDIT) $(srcdir)/contrib/pbem.tmpfiles.in >$@.tmp && \
	    mv $@.tmp $@
CONTRIB_MADE = contrib/pbemd.service contrib/pbem.sysusers \
	contrib/pbem.tmpfiles
all-local: $(CONTRIB_MADE)
CLEANFILES += $(CONTRIB_MADE) contrib/paths.stamp contrib/paths.stamp.tmp
# EXTRA_DIST ships contrib/ whole: leave out what an in-tree build made,
# so that a build from the tarball makes them with its own paths.
dist-hook:
	for f in $(CONTRIB_MADE) contrib/paths.stamp; do rm -f "$(distdir)/$$f"; done

# Installed under the names systemd looks for.
install-data-local: $(CONTRIB_MADE) install-example-config
	$(MKDIR_P) '$(DESTDIR)$(systemdunitdir)' '$(DESTDIR)$(sysusersdir)' \
	    '$(DESTDIR)$(tmpfilesdir)'
	$(INSTALL_DATA) contrib/pbemd.service '$(DESTDIR)$(systemdunitdir)/pbemd.service'
	$(INSTALL_DATA) contrib/pbem.sysusers '$(DESTDIR)$(sysusersdir)/pbem.conf'
	$(INSTALL_DATA) contrib/pbem.tmpfiles '$(DESTDIR)$(tmpfilesdir)/pbem.conf'
uninstall-local: uninstall-example-config
	rm -f '$(DESTDIR)$(systemdunitdir)/pbemd.service' \
	    '$(DESTDIR)$(sysusersdir)/pbem.conf' \
	    '$(DESTDIR)$(tmpfilesdir)/pbem.conf'

# The example configuration, as $(sysconfdir)/pbem/pbemd.conf when there
# is none yet (an administrator's file is never overwritten), and always
# as pbemd.conf.example beside it.  Uninstalling removes the first only
# if it is still the example, unchanged.
pbemconfdir = $(sysconfdir)/pbem
install-example-config:
	$(MKDIR_P) '$(DESTDIR)$(pbemconfdir)'
	$(INSTALL_DATA) $(srcdir)/contrib/pbemd.conf '$(DESTDIR)$(pbemconfdir)/pbemd.conf.example'
	test -f '$(DESTDIR)$(pbemconfdir)/pbemd.conf' || \
	    $(INSTALL_DATA) $(srcdir)/contrib/pbemd.conf '$(DESTDIR)$(pbemconfdir)/pbemd.conf'
uninstall-example-config:
	if cmp -s $(srcdir)/contrib/pbemd.conf '$(DESTDIR)$(pbemconfdir)/pbemd.conf'; then \
	    rm -f '$(DESTDIR)$(pbemconfdir)/pbemd.conf'; fi
	rm -f '$(DESTDIR)$(pbemconfdir)/pbemd.conf.example'
.PHONY: install-example-config uninstall-example-config

# The manual pages (mdoc), linted by tests/man-test.sh.
dist_man_MANS = docs/man/pbem.1 docs/man/pbemd.conf.5 docs/man/pbemctl.8 \
	docs/man/pbemd.8
# The IRC bot is not installed (contrib/ircbot, docs/BOTS.md section 9):
# its page travels with it.
EXTRA_DIST += contrib/ircbot/pbem-ircbot docs/man/pbem-ircbot.1
TESTS += tests/man-test.sh
EXTRA_DIST += tests/man-test.sh

# The unit as made here and as `make install DESTDIR=...` puts it: the
# installed unit passes `systemd-analyze verify --root` with its installed
# ExecStart (skipped, with a message, where systemd-analyze is not
# installed).
TESTS += tests/unit-test.sh
EXTRA_DIST += tests/unit-test.sh
