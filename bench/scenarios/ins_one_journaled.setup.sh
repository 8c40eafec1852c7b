# The user ins_one_journaled inserts as (as ins_one).
exec bash "$(dirname "$0")/ins_one.setup.sh"
