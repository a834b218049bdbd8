#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-deps.sh [CONTROL]: the packages of CONTROL's (debian/control's)
# Build-Depends, one a line, as apt-get install takes them: versions,
# architecture and profile restrictions dropped, the first of each set of
# alternatives. `make deb` and tests/arch/packages.sh install these, so
# that the list lives in debian/control alone (a virtual package such as
# dh-sequence-dkms has one provider, which apt-get picks).
control=${1:-$(dirname "$0")/../../debian/control}
sed -n '/^Build-Depends:/,/^[^ \t]/{
	/^Build-Depends:/{
		s/^Build-Depends://p
		d
	}
	/^[ \t]/p
}' "$control" | tr ',' '\n' |
	sed 's/|.*//; s/([^)]*)//g; s/\[[^]]*\]//g; s/<[^>]*>//g' |
	tr -d ' \t' | grep -v '^$'
