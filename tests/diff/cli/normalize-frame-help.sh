# --help says what --normalize-frame divides by (shares within the
# unit of work: an even slowdown cancels out) and points to --requests for cost per request.
flame-diff --help | grep -- '--normalize-frame' | fold -s -w 100
flame-diff --help | grep -c -- 'for cost per request use --requests'
