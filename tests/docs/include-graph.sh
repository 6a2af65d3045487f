#!/bin/sh
# The include graph against docs/architecture.md's "Who owns what" table.
#
# Every backticked path in a row's "depends on" column is an edge the row's
# folder may take: a folder (`src/trace/`) allows any of its files, a file
# (`src/sim/schedutil.h`) only that one; words without backticks (libc,
# jansson) are prose. Every #include "..." in src/**/*.{c,h,def} and
# kernel/guest/**/*.{c,h}, and every #include <linux/...> that names a
# src/kcompat header, is resolved to a file and so to the folder of the
# table that owns it (the longest folder that contains it). The test fails
#  - naming file:line for an include of another folder the row does not
#    declare (the code took an edge the doc does not show),
#  - naming the row for a declared edge no include uses (the doc claims
#    more than the code does), or a backticked path that does not exist,
#  - for an include that resolves to no file, or to two (a header
#    protoc-c generates, NAME.pb-c.h, resolves to its NAME.proto),
#  - for an edge to a row listed after the includer's: the table lists
#    the layers bottom-up, so that order is the layering.
# The link edges go the same way: a meson.build of those folders that
# uses a *_dep another folder declares (declare_dependency) links that
# folder, which its row must name too (meson's own dependencies, jansson,
# check, are not folders of the table). The link check is per folder:
# a row that names only files of a folder may link any of its
# dependencies (xcheck's capsim_model_pure_dep is kept by review).
# A kcompat header that only forwards to another file (linux/sched/
# cap_clamp.h: the core's header under its kernel name) stands for the
# file it forwards to, and its one include is the only edge allowed to
# go up the table. Only rows owning scanned files are checked.
#
# Usage: include-graph.sh [SRCDIR]   (default: this script's tree)
set -eu
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top"
doc=docs/architecture.md
[ -f "$doc" ] || { echo "include-graph: no $doc in $top" >&2; exit 2; }

files=$(find src kernel/guest -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) | LC_ALL=C sort)
[ -n "$files" ] || { echo "include-graph: no sources under $top/src" >&2; exit 2; }
mesons=$(find src kernel/guest -type f -name meson.build | LC_ALL=C sort)

# every path that exists (for backticked paths in the doc)
paths=$(find src kernel tests bench docs -type d 2>/dev/null | sed 's|$|/|'
	find src kernel tests bench -type f 2>/dev/null)

# awk reads: the list of existing paths, the doc, then every scanned file
printf '%s\n' "$paths" > "${TMPDIR:-/tmp}/include-graph.$$"
trap 'rm -f "${TMPDIR:-/tmp}/include-graph.$$"' EXIT INT TERM
# shellcheck disable=SC2086
awk -v doc="$doc" '
function dirname(p) { sub(/\/[^\/]*$/, "", p); return p }
function basename(p) { sub(/.*\//, "", p); return p }
# a/b/../c -> a/c
function normalize(p,    n, i, part, out, k, o) {
	n = split(p, part, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "." || part[i] == "")
			continue
		if (part[i] == ".." && k > 0) { k--; continue }
		out[++k] = part[i]
	}
	o = out[1]
	for (i = 2; i <= k; i++)
		o = o "/" out[i]
	return o
}
# the table folder that owns @f: the longest one that prefixes it
function owner(f,    best, r) {
	best = ""
	for (r in row_deps)
		if (index(f, r) == 1 && length(r) > length(best))
			best = r
	return best
}
# the file a quoted include names, from @f; "" none, "?" two
function resolve_quoted(f, inc,    cand, b, n, hit, p, proto) {
	cand = normalize(dirname(f) "/" inc)
	if (cand in scanned)
		return cand
	# a header protoc-c generates at build time (NAME.pb-c.h) stands for
	# the .proto it is made from
	if (inc ~ /\.pb-c\.h$/) {
		proto = inc
		sub(/\.pb-c\.h$/, ".proto", proto)
		for (p in exists)
			if (substr(p, length(p) - length(proto)) == "/" proto)
				return p
	}
	if (inc ~ /\//)
		return ""
	b = inc
	if (!(b in by_name))
		return ""
	n = split(by_name[b], hit, " ")
	if (n == 1)
		return hit[1]
	# the same name in two folders: the folder of the including file wins
	for (p = 1; p <= n; p++)
		if (owner(hit[p]) == owner(f))
			return hit[p]
	return "?"
}
FILENAME == ARGV[1] { exists[$0] = 1; next }
FILENAME == doc {
	if ($0 ~ /^## /) in_table = ($0 == "## Who owns what")
	if (!in_table || $0 !~ /^\| `/)
		next
	n = split($0, cell, "|")
	# cell[2]: the folders of the row, cell[4]: what it depends on
	folders = cell[2]
	deps = cell[4]
	while (match(folders, /`[^`]*`/)) {
		fo = substr(folders, RSTART + 1, RLENGTH - 2)
		folders = substr(folders, RSTART + RLENGTH)
		row_deps[fo] = ""
		row_index[fo] = ++nrow
		d = deps
		while (match(d, /`[^`]*`/)) {
			dep = substr(d, RSTART + 1, RLENGTH - 2)
			d = substr(d, RSTART + RLENGTH)
			if (!(dep in exists)) {
				printf "%s: the \"depends on\" of `%s` names `%s`, which does not exist\n", doc, fo, dep
				bad++
				continue
			}
			row_deps[fo] = row_deps[fo] " " dep
		}
	}
	next
}
FILENAME ~ /meson\.build$/ {
	line = $0
	sub(/#.*/, "", line)
	if (match(line, /^[a-z_0-9]+_dep[ \t]*=[ \t]*declare_dependency/)) {
		v = line
		sub(/[ \t]*=.*/, "", v)
		dep_home[v] = dirname(FILENAME) "/"
	}
	sub(/^[a-z_0-9]+[ \t]*=/, "", line)
	while (match(line, /[a-z_0-9]+_dep/)) {
		nl++
		l_file[nl] = FILENAME; l_line[nl] = FNR
		l_dep[nl] = substr(line, RSTART, RLENGTH)
		line = substr(line, RSTART + RLENGTH)
	}
	next
}
FNR == 1 {
	scanned[FILENAME] = 1
	b = basename(FILENAME)
	by_name[b] = (b in by_name) ? by_name[b] " " FILENAME : FILENAME
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	inc = $0
	sub(/^[^"]*"/, "", inc)
	sub(/".*/, "", inc)
	nq++
	q_file[nq] = FILENAME; q_line[nq] = FNR; q_inc[nq] = inc; q_kind[nq] = "q"
	if (FILENAME ~ /^src\/kcompat\/include\//)
		forwards[FILENAME] = inc
	next
}
/^[ \t]*#[ \t]*include[ \t]*<linux\// {
	inc = $0
	sub(/^[^<]*</, "", inc)
	sub(/>.*/, "", inc)
	nq++
	q_file[nq] = FILENAME; q_line[nq] = FNR; q_inc[nq] = inc; q_kind[nq] = "a"
}
END {
	if (!length(row_deps)) {
		printf "%s: no \"Who owns what\" table found\n", doc
		exit 1
	}
	for (i = 1; i <= nq; i++) {
		f = q_file[i]
		if (q_kind[i] == "a") {
			t = "src/kcompat/include/" q_inc[i]
			if (!(t in scanned))
				continue	# a system header
			# a forwarding header stands for the file it names
			if (t in forwards && forwards[t] ~ /\//)
				t = normalize(dirname(t) "/" forwards[t])
		} else {
			t = resolve_quoted(f, q_inc[i])
		}
		if (t == "" || t == "?") {
			printf "%s:%d: #include %s resolves to %s\n", f, q_line[i],
				q_inc[i], t == "" ? "no file" : "two files"
			bad++
			continue
		}
		from = owner(f); to = owner(t)
		if (from == "") {
			if (!(f in homeless))
				printf "%s: in no folder of the table in %s\n", f, doc
			homeless[f] = 1
			bad++
			continue
		}
		checked[from] = 1
		if (to == from)
			continue
		n = split(row_deps[from], allowed, " ")
		ok = 0
		for (k = 1; k <= n; k++) {
			a = allowed[k]
			if ((a ~ /\/$/ && to == a) || t == a) {
				used[from, a] = 1
				ok = 1
			}
		}
		if (!ok) {
			printf "%s:%d: includes %s (%s): `%s` does not depend on it in %s\n",
				f, q_line[i], t, to, from, doc
			bad++
		} else if (row_index[to] > row_index[from] &&
			   !(f in forwards && forwards[f] ~ /\//)) {
			printf "%s:%d: includes %s: `%s` is listed after `%s` in %s, whose table goes bottom-up\n",
				f, q_line[i], t, to, from, doc
			bad++
		}
	}
	# the link edges: each to a folder the row names (or names a file of)
	for (i = 1; i <= nl; i++) {
		if (!(l_dep[i] in dep_home))
			continue	# a dependency from outside the tree
		from = owner(l_file[i]); to = owner(dep_home[l_dep[i]])
		if (from == "" || to == from)
			continue
		n = split(row_deps[from], allowed, " ")
		ok = 0
		for (k = 1; k <= n; k++)
			if (index(allowed[k], to) == 1)
				ok = 1
		if (!ok) {
			printf "%s:%d: links %s (%s): `%s` does not depend on it in %s\n",
				l_file[i], l_line[i], l_dep[i], to, from, doc
			bad++
		}
	}
	for (from in checked) {
		n = split(row_deps[from], allowed, " ")
		for (k = 1; k <= n; k++)
			if (!((from, allowed[k]) in used)) {
				printf "%s: `%s` is said to depend on `%s`, but no include of it does\n",
					doc, from, allowed[k]
				bad++
			}
	}
	if (bad) {
		printf "include-graph: %d disagreement(s) between the code and %s\n", bad, doc
		exit 1
	}
	nrows = 0
	for (from in checked) nrows++
	printf "include-graph: %d includes and %d meson dependency uses in %d folders agree with %s\n", nq, nl, nrows, doc
}
' "${TMPDIR:-/tmp}/include-graph.$$" "$doc" $files $mesons
