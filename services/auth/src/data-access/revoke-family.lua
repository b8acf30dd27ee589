-- KEYS[1] is the family's set: a script is routed by its keys, so on a cluster it runs on the node of the
-- prefix's hash tag, where every other key it reaches lives too.
local prefix = ARGV[1]
local fam = KEYS[1]
--#include delete-family.lua
return revoked
