# Rows of the bad-input table (sourced by table.sh): every command's
# unknown option and missing value (issue 24 item 3), each refused by the
# shared option parser with the option named, the see-line of its command,
# exit status 2 and nothing written.

# opt_rows "OPTION..." CMD...: an unknown option of the command CMD...
# (capsim's words before its options), and each OPTION without its value
opt_rows() {
	opts=$1
	shift
	fresh; workload "{ $G, $T }"
	row "$* --bogus" 2 "capsim: unknown option: --bogus" 10 256 \
		$W "$@" --bogus
	for value in $opts; do
		fresh; workload "{ $G, $T }"
		row "$* $value (no value)" 2 "capsim: $value needs a value" 10 256 \
			$W "$@" "$value"
	done
}

opt_rows "--platform -o" run w.json
opt_rows --platform validate w.json
opt_rows "--platform -j" compare w.json
opt_rows "--set -o" sweep w.json
opt_rows --tasks plot w.json
opt_rows "-o --policy" xcheck w.json

# no value options: an unknown option still, and a value given to a flag
fresh; workload "{ $G, $T }"
row "trace-dat --bogus" 2 "capsim: unknown option: --bogus" 10 256 \
	$W trace-dat w.json out.dat --bogus
fresh
row "trace-dat --force=yes" 2 "capsim: --force takes no value" 10 256 \
	$W trace-dat --force=yes w.json out.dat
fresh
row "platforms --bogus" 2 "capsim: unknown option: --bogus" 10 256 $W platforms --bogus
fresh
row "platform cmdline --bogus" 2 "capsim: unknown option: --bogus" 10 256 \
	$W platform cmdline --bogus sym4
fresh
row "platform show -x" 2 "capsim: unknown option: -x" 10 256 \
	$W platform show -x sym4
fresh
row "capsim --bogus" 2 "capsim: unknown option: --bogus" 10 256 $W --bogus run
fresh
row "run: the see-line names the command" 2 "see \`capsim run --help\`" 10 256 \
	$W run w.json --quiet=1

# capsim-replay, the same convention under its own name
fresh
row "capsim-replay --bogus" 2 "capsim-replay: unknown option: --bogus" 10 256 \
	$R --bogus
fresh
row "capsim-replay --cpus (no value)" 2 "capsim-replay: --cpus needs a value" 10 256 \
	$R --cpus
fresh
row "capsim-replay --cpus 0" 2 "capsim-replay: --cpus needs an integer in [1, 65536]: 0" 10 256 \
	$R --cpus 0 /dev/null

# "--" ends the options: a file whose name starts with '-' is still a
# file (without "--" it is an unknown option, as above)
fresh; printf '%s' "{ $G, $T }" > ./-w.json
row "validate -- -w.json" 0 "-w.json: ok: workload -w, 1 tasks" 10 256 \
	$W validate -- -w.json
