-- Reserves up to ARGV[2] requests of the window, never past the limit ARGV[3], in one atomic round trip;
-- the first reservation of a window starts its expiry. Returns the counter after it, the number granted
-- (0 when the window is spent) and the milliseconds left in the window.
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.max(0, math.min(tonumber(ARGV[2]), tonumber(ARGV[3]) - count))
if grant > 0 then count = redis.call('INCRBY', KEYS[1], grant) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  if count > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  ttl = tonumber(ARGV[1])
end
return {count, grant, ttl}
