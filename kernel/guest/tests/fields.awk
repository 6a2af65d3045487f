# The helper the trace readers share (awk -f fields.awk -f READER.awk):
# field(LINE, KEY), the number of the token KEY=N of an ftrace line, -1
# when the line has no such field. Values with spaces (comms) are not
# numbers and are never asked for.
function field(line, key,    i, n, kv) {
	n = split(line, kv, " ")
	for (i = 1; i <= n; i++)
		if (index(kv[i], key "=") == 1)
			return substr(kv[i], length(key) + 2) + 0
	return -1
}
