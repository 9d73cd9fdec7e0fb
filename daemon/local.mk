# daemon/: the core library (protocol, random stream, log chain, engine)
# and the programs built on it.
noinst_LIBRARIES += daemon/libpbem.a
daemon_libpbem_a_CPPFLAGS = $(CORE_CPPFLAGS)
daemon_libpbem_a_SOURCES = \
	daemon/protocol.h daemon/protocol.c \
	daemon/rng.h daemon/rng.c

# Protocol and random-stream tests (vectors from docs/PROTOCOL.md).
check_PROGRAMS += tests/check_protocol
TESTS += tests/check_protocol
tests_check_protocol_SOURCES = tests/check_protocol.c
tests_check_protocol_CPPFLAGS = $(CORE_CPPFLAGS) $(CHECK_CFLAGS)
tests_check_protocol_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
