#!/bin/sh
# Where capsim compare's plotting time goes, figure by figure (never
# pass/fail): one compare is made, then every figure it draws is drawn
# again alone, by a gnuplot of its own, under callgrind (instruction
# counts do not move with the shared machine's load). Per figure and
# format: the pixels, the data rows handed to gnuplot, gnuplot's
# instructions above its bare start-up, and of them the PNG encoding
# (libpng's row filters and zlib, inside cairo_surface_write_to_png).
# The bare start-up (`gnuplot -e 'print 1'`) is printed once; a gnuplot
# process pays it once however many figures it draws.
#   bench_plot_figures.sh CAPSIM SRCDIR [WORKLOAD]
set -eu
capsim=$1
src=$(cd "$2" && pwd)
w=${3:-$src/traces/whatif-bg-cap.json}
command -v valgrind >/dev/null || { echo "valgrind not installed: skipped"; exit 0; }
command -v callgrind_annotate >/dev/null || { echo "callgrind_annotate not installed: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CAPSIM_PLOTS="$src/plots"
"$capsim" compare "$w" -o "$tmp/c" --quiet --plots all

# instructions of `gnuplot ARGS...` run in $dir: "total encode"
count() {
	(cd "$dir" && valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
		gnuplot "$@" >/dev/null 2>&1)
	callgrind_annotate --threshold=100 "$tmp/cg" 2>/dev/null | awk '
		/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
		/\[.*(libpng|libz\.)/ { v = $1; gsub(",", "", v); enc += v }
		END { printf "%d %d\n", total, enc }'
}

dir=$tmp
base=$(count -e 'print 1' | cut -d' ' -f1)
printf 'gnuplot start-up alone: %.1f M instructions\n\n' "$(echo "$base" | awk '{ print $1 / 1e6 }')"
printf '%-18s %-4s %11s %9s %12s %12s %7s\n' figure fmt pixels 'data rows' 'M instr' 'M encode' 'encode'

# one figure: $1 label, $2 script, $3 data files (a glob, relative to $dir)
figure() {
	rows=$(cd "$dir" && cat $3 2>/dev/null | grep -cv '^#' || true)
	for fmt in png svg; do
		set -- "$1" "$2" "$3" "$(count -e "datadir='$data'; plotsdir='$src/plots'" \
			-e "out='$tmp/fig.$fmt'; fmt='$fmt'" "$src/plots/$2.gp")"
		px=-
		if [ "$fmt" = png ]; then
			px=$(file "$tmp/fig.png" | sed -n 's/.* \([0-9]*\) x \([0-9]*\),.*/\1x\2/p')
		fi
		echo "$4" | awk -v l="$1" -v f="$fmt" -v px="$px" -v r="$rows" -v b="$base" '{
			printf "%-18s %-4s %11s %9d %12.1f %12.1f %6.0f%%\n", l, f, px, r,
				($1 - b) / 1e6, $2 / 1e6, 100 * $2 / ($1 - b) }'
	done
}

for p in rfc none uclamp; do
	dir=$tmp/c/$p/plots
	data=data
	[ -d "$dir" ] || { echo "bench_plot_figures: no $dir" >&2; exit 1; }
	for fig in freq activity util residency energy; do
		[ -f "$dir/$fig.png" ] || continue
		case $fig in
		freq) files='data/freq-dom*.dat' ;;
		util) files='data/util-cpu*.dat' ;;
		residency) files='data/residency-dom*.dat' ;;
		*) files="data/$fig.dat" ;;
		esac
		figure "$p/$fig" "$fig" "$files"
	done
done
dir=$tmp/c
data=compare-data
figure compare compare 'compare-data/*.dat'
