# SPDX-License-Identifier: GPL-2.0
# The compiled corpus of a kernel tree, shared by every checkout on the
# host: compiling its 2,700 (6.12) or 2,300 (6.1) .dts takes a minute of
# both cores, and each new clone of the project unpacks the same trees
# again. A tree's DTBs are kept under $CORPUS_CACHE, keyed by its release
# and the content of what they are made from (every .dts and .dtsi under
# arch/*/boot/dts, include/dt-bindings, the include-prefixes links),
# corpus.mk, dtc and cpp; the newest CORPUS_KEEP (4) are kept. Sourced;
# needs TOOLDIR.

CORPUS_CACHE=${CORPUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdma-dtcheck-corpus}
CORPUS_KEEP=${CORPUS_KEEP:-4}

# corpus_key KSRC: the cache key of KSRC's corpus (release-hash)
corpus_key() {
	_kv=$(sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' "$1/Makefile" | tr '\n' '.')
	_sum=$(
		cat "$TOOLDIR/tests/corpus.mk"
		dtc --version
		cpp --version | head -n 1
		cd "$1" || exit 1
		find arch/*/boot/dts include/dt-bindings -type f -print0 | sort -z | xargs -0 md5sum
		find scripts/dtc/include-prefixes -type l -printf '%p -> %l\n' | sort
	) || return 1
	echo "${_kv%.}-$(echo "$_sum" | md5sum | cut -c1-16)"
}

# corpus_build KSRC LOG: sets CORPUS_DIR to KSRC's compiled corpus,
# compiling it first unless the cache has it (make's output in LOG, or
# "cached" there). The DTBs dtc rejects have a non-empty NAME.dtb.log
# and no NAME.dtb. Two runs at once: the second waits for the first.
corpus_build() {
	_key=$(corpus_key "$1") || return 1
	CORPUS_DIR=$CORPUS_CACHE/$_key
	mkdir -p "$CORPUS_CACHE" || return 1
	(
		flock 9 || exit 1
		if [ -f "$CORPUS_DIR/.complete" ]; then
			echo "cached: $CORPUS_DIR" >"$2"
			touch "$CORPUS_DIR"
			exit 0
		fi
		rm -rf "$CORPUS_DIR"
		# -k: dtc 1.6.1 rejects a few boards the kernel's own dtc
		# takes; the others are still compiled.
		make -s -k -j"${JOBS:-2}" -f "$TOOLDIR/tests/corpus.mk" KSRC="$1" \
			OUTDIR="$CORPUS_DIR" >"$2" 2>&1
		[ -d "$CORPUS_DIR" ] || exit 1
		touch "$CORPUS_DIR/.complete"
		# shellcheck disable=SC2012 # names are release-hash, no blanks
		ls -dt "$CORPUS_CACHE"/*/ | tail -n +$((CORPUS_KEEP + 1)) | xargs -r rm -rf
	) 9>"$CORPUS_CACHE/.lock"
}
