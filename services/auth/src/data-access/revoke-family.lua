local prefix = ARGV[1]
local fam = prefix .. 'fam:' .. ARGV[2]
--#include delete-family.lua
return revoked
