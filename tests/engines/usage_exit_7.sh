echo 'usage: engine --protocol' >&2
exit 7
