# a pprof whose first field's length runs past the end said only
# "not a pprof profile"; it says which field, its length and at which byte
printf '\x0a\xff\xff\x03\x01\x02' > cut.pb
flame-collapse --format pprof cut.pb
# a field with the wrong wire type for Profile, after a good one
printf '\x0a\x02\x08\x01\x10\x05\x12\x01' > wt.pb
flame-collapse --format pprof wt.pb
# text stays "not a pprof profile", with no byte to name
echo 'a;b 1' | flame-collapse --format pprof
