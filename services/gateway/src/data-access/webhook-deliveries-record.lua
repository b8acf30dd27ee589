-- One webhook's delivery recorded (KEYS: order, records; ARGV: delivery id, event time in ms, record, how
-- many to keep, TTL in ms), in one script so that the entry, its place in the order and the trim of the
-- oldest go together. Answers how many old deliveries were trimmed.
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1])
local old = redis.call('ZRANGE', KEYS[1], 0, -(tonumber(ARGV[4]) + 1))
if #old > 0 then
  redis.call('ZREM', KEYS[1], unpack(old))
  redis.call('HDEL', KEYS[2], unpack(old))
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return #old
