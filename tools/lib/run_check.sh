# Sourced by the tools/*_check.sh scripts. run_check LABEL PROGRAM [ARGS...] runs a built check and prints
# its summary after LABEL; when the check fails (exit status not 0), it prints everything the
# check wrote (its FAIL lines and figures) under "LABEL FAILED:" and exits 1.
run_check() {
    local label="$1" program="$2" result
    shift 2
    if ! result="$("$program" "$@")"; then
        printf '%s FAILED:\n%s\n' "$label" "$result"
        exit 1
    fi
    echo "$label: $result"
}
