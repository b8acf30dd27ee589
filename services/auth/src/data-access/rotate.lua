-- Single round trip, atomic: the check of the spent flag and the issue of the successor cannot interleave
-- with another refresh of the same token, so of N concurrent refreshes exactly one rotates. The deadline is
-- checked against Redis's clock first (ARGV[8], unix ms): a script that waited behind a stalled Redis after
-- the service had already answered 503 must not consume the token.
local prefix = ARGV[1]
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[8]) then
  return {'expired'}
end
local state = redis.call('HMGET', KEYS[1], 'family', 'spent')
local family = state[1]
if not family then return {'unknown'} end
if state[2] == '1' then
  local fam = prefix .. 'fam:' .. family
--#include delete-family.lua
  return {'reused', revoked}
end
redis.call('HSET', KEYS[1], 'spent', '1', 'next', ARGV[5])
redis.call('SET', prefix .. 'at:' .. ARGV[2], ARGV[3], 'EX', ARGV[4])
redis.call('HSET', prefix .. 'rt:' .. ARGV[5], 'data', ARGV[6], 'family', family, 'spent', '0')
redis.call('EXPIRE', prefix .. 'rt:' .. ARGV[5], ARGV[7])
local fam = prefix .. 'fam:' .. family
redis.call('SADD', fam, 'at:' .. ARGV[2], 'rt:' .. ARGV[5])
redis.call('EXPIRE', fam, ARGV[7])
return {'rotated'}
