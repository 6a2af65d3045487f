# Fixed identity and dates, so that the generated series is byte-identical
# from one run (and one machine) to the next. Sourced by the kernel scripts.
export GIT_AUTHOR_NAME="capsim developers"
export GIT_AUTHOR_EMAIL="capsim@example.org"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME"
export GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00+0000"
export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
export GIT_CONFIG_NOSYSTEM=1
export GIT_CONFIG_GLOBAL=/dev/null
