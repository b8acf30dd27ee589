-- Reserve first, then check: concurrent attempts each take a slot before the expensive verification, so a
-- burst cannot run more verifications than the limit. A refused attempt writes nothing: counters are only
-- created by attempts that were let through, so a flood of refused attempts (random client ids, say) leaves
-- no keys behind.
local window = ARGV[1]
local wait = 0
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i + 1]) then
    wait = math.max(wait, redis.call('TTL', key), 1)
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, window, 'NX')
end
return 0
