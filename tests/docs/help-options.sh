#!/bin/sh
# Every long option in a command's struct option table (the getopt_long
# table it parses with) appears in that command's --help: the help text
# cannot lose an option that runs. Usage: help-options.sh CAPSIM SRCDIR
set -u
W=${1:?usage: help-options.sh CAPSIM SRCDIR}
SRC=${2:?}
fail=0 n=0

# check FILE TABLE COMMAND...: TABLE's options in `capsim COMMAND --help`
check() {
	file=$SRC/$1 table=$2
	shift 2
	opts=$(awk -v t="$table" '$0 ~ t "\\[\\] = \\{" { on = 1; next }
		on && /^};/ { on = 0 } on' "$file" | grep -o '{ "[a-z-]*"' | tr -d '{" ')
	if [ -z "$opts" ]; then
		echo "FAIL $table: no options found in $1"
		fail=$((fail + 1))
		return
	fi
	help=$("$W" "$@" --help) || { echo "FAIL capsim $* --help"; fail=$((fail + 1)); return; }
	# usage texts are printed with fputs(): a "%%" written for printf()
	# would reach the user as it is
	if printf '%s\n' "$help" | grep -q '%%'; then
		echo "FAIL capsim $* --help prints a literal %%"
		fail=$((fail + 1))
	fi
	for o in $opts; do
		n=$((n + 1))
		printf '%s\n' "$help" | grep -q -- "--$o" && continue
		echo "FAIL capsim $* --help does not name --$o"
		fail=$((fail + 1))
	done
}

check src/cli/cli.c run_options run
check src/cli/cli.c validate_options validate
check src/cli/cli.c platform_cmdline_options platform cmdline
check src/cli/cli.c main_options
check src/cli/cli_tracedat.c trace_dat_options trace-dat
check src/whatif/compare.c compare_options compare
check src/whatif/sweep.c sweep_options sweep
check src/whatif/plot.c plot_options plot
check src/xcheck/xcheck_cmd.c xcheck_options xcheck
check src/import/import_check_cmd.c import_check_options import-check
check src/import/import_cmd.c import_options import
echo "$n options checked, $fail failed"
[ "$fail" -eq 0 ]
