#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# 30-sign.sh - make sign signs the built modules as kbuild does: modinfo
# shows the signer and the hash algorithm afterwards. Uses a throw-away key
# made here with openssl (as kbuild's certs/Makefile makes one); the tree's
# modules are relinked unsigned at the end.

. "$SEQRING_TESTS/lib.sh"

plan 7

restore() {
	rm -f seqring.ko sequence.ko samples/seqring_timerlat.ko
	make -s modules >/dev/null 2>&1
}

cn="seqring test key $$"
openssl req -new -nodes -utf8 -sha512 -days 1 -batch -x509 \
	-subj "/CN=$cn/" -newkey rsa:2048 -keyout "$T/key.pem" \
	-out "$T/cert.pem" 2>/dev/null
check "openssl makes a key and a certificate" test -s "$T/cert.pem"

restore
is "" "$(modinfo -F signer seqring.ko)" "a freshly built module is not signed"

check "make sign KEY=... CERT=... SIGN_HASH=sha512" \
	make -s sign KEY="$T/key.pem" CERT="$T/cert.pem" SIGN_HASH=sha512
is "$cn sha512 $cn sha512 $cn sha512" \
	"$(for m in seqring.ko sequence.ko samples/seqring_timerlat.ko; do modinfo -F signer $m; modinfo -F sig_hashalgo $m; done | words)" \
	"modinfo shows signer and sig_hashalgo of the three modules"

make -s sign KEY="$T/key.pem" CERT="$T/cert.pem" >"$T/out" 2>&1
rc=$?
is "2 1" "$rc $(grep -c 'signed already' "$T/out")" \
	"signing a signed module again is refused (make exits 2)"

restore
# kbuild's own key file: key and certificate in one PEM file.
cat "$T/key.pem" "$T/cert.pem" >"$T/both.pem"
make -s sign KEY="$T/both.pem" >/dev/null 2>&1
is "$cn sha256" "$(modinfo -F signer seqring.ko) $(modinfo -F sig_hashalgo seqring.ko)" \
	"KEY alone (a PEM with both) signs with sha256 by default"

make -s sign >"$T/out" 2>&1
like "$(cat "$T/out")" 'usage: make sign KEY=' "make sign without KEY prints usage"

restore
done_testing
