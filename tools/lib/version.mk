# SPDX-License-Identifier: GPL-2.0
#
# libseqring's own version, for tools/Makefile, which builds the library,
# and the top-level Makefile, which installs it. The soname changes only
# when the ABI does (libseqring.map), not with the package's VERSION; the
# minor number with each version node that adds symbols (LIBSEQRING_1.1:
# 1.1.0).
LIB_SOVERSION := 1
LIB_VERSION := $(LIB_SOVERSION).1.0
LIB_SONAME := libseqring.so.$(LIB_SOVERSION)
