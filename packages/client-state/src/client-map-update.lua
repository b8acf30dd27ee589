-- A client's write in one round trip (KEYS: entries, order; ARGV: cap, retention in seconds or 0, the cutoff of
-- expired write times, how many keys are removed, those keys, then a write time, key and value per entry). In
-- order: the expired entries go, the removed ones go, the entries are written, the oldest beyond the cap go
-- (answered as key, value, key, value, ...: their owner may have to withdraw what they added elsewhere),
-- and with a retention both keys get it as their TTL. Write times
-- come from the caller as strings: a Lua number would lose the fractions that order one write's entries.
-- Keys go to HDEL / ZREM, and entries to one HSET and one ZADD, a thousand arguments at a time (Lua's
-- `unpack` has a limit): one call per command rather than per entry costs Redis a fifth less per write.
local hash, order = KEYS[1], KEYS[2]
local cap, retention = tonumber(ARGV[1]), tonumber(ARGV[2])
local function drop(keys, sorted)
  for i = 1, #keys, 1000 do
    local last = math.min(i + 999, #keys)
    redis.call('HDEL', hash, unpack(keys, i, last))
    if sorted then redis.call('ZREM', order, unpack(keys, i, last)) end
  end
end
if retention > 0 then drop(redis.call('ZRANGEBYSCORE', order, '-inf', '(' .. ARGV[3]), true) end
local removed = tonumber(ARGV[4])
local gone = {}
for i = 5, 4 + removed do gone[#gone + 1] = ARGV[i] end
drop(gone, true)
local fields, scores = {}, {}
for i = 5 + removed, #ARGV, 3 do
  fields[#fields + 1], fields[#fields + 2] = ARGV[i + 1], ARGV[i + 2]
  scores[#scores + 1], scores[#scores + 2] = ARGV[i], ARGV[i + 1]
end
for i = 1, #fields, 1000 do
  local last = math.min(i + 999, #fields)
  redis.call('HSET', hash, unpack(fields, i, last))
  redis.call('ZADD', order, unpack(scores, i, last))
end
local size = redis.call('ZCARD', order)
local dropped = {}
if size > cap then
  local popped = redis.call('ZPOPMIN', order, size - cap)
  local oldest = {}
  for i = 1, #popped, 2 do oldest[#oldest + 1] = popped[i] end
  for i = 1, #oldest, 1000 do
    local values = redis.call('HMGET', hash, unpack(oldest, i, math.min(i + 999, #oldest)))
    for k = 1, #values do dropped[#dropped + 1], dropped[#dropped + 2] = oldest[i + k - 1], values[k] end
  end
  drop(oldest, false)
end
if retention > 0 then
  redis.call('EXPIRE', hash, retention)
  redis.call('EXPIRE', order, retention)
end
return dropped
