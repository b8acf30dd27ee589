-- A client's write (KEYS: order, items, reports; ARGV: cap, retention seconds, cutoff time, then time, id and
-- value per check). Expired checks go (a bounded number per write; the rest with the keys' TTL), the checks
-- are added, the oldest beyond the cap go, and all three keys get the retention as their TTL. Returns the
-- number of checks before the cap applied.
local order, items, reports = KEYS[1], KEYS[2], KEYS[3]
local cap, retention, cutoff = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local function drop(ids)
  if #ids == 0 then return end
  redis.call('HDEL', items, unpack(ids))
  redis.call('HDEL', reports, unpack(ids))
end
local expired = redis.call('ZRANGEBYSCORE', order, '-inf', '(' .. cutoff, 'LIMIT', 0, 1000)
if #expired > 0 then
  redis.call('ZREM', order, unpack(expired))
  drop(expired)
end
for i = 4, #ARGV, 3 do
  redis.call('ZADD', order, ARGV[i], ARGV[i + 1])
  redis.call('HSET', items, ARGV[i + 1], ARGV[i + 2])
end
local size = redis.call('ZCARD', order)
if size > cap then
  local popped = redis.call('ZPOPMIN', order, size - cap)
  local oldest = {}
  for i = 1, #popped, 2 do oldest[#oldest + 1] = popped[i] end
  for i = 1, #oldest, 1000 do drop({ unpack(oldest, i, math.min(i + 999, #oldest)) }) end
end
redis.call('EXPIRE', order, retention)
redis.call('EXPIRE', items, retention)
redis.call('EXPIRE', reports, retention)
return size
