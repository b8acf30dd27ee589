-- The successor is removed only while it is still unspent, so an undo can never take away tokens that a
-- client has already used.
local prefix = ARGV[1]
local state = redis.call('HMGET', KEYS[1], 'family', 'spent', 'next')
if state[2] ~= '1' or state[3] ~= ARGV[2] then return 0 end
local successor = prefix .. 'rt:' .. ARGV[2]
if redis.call('HGET', successor, 'spent') ~= '0' then return 0 end
redis.call('DEL', successor, prefix .. 'at:' .. ARGV[3])
redis.call('SREM', prefix .. 'fam:' .. state[1], 'rt:' .. ARGV[2], 'at:' .. ARGV[3])
redis.call('HSET', KEYS[1], 'spent', '0')
redis.call('HDEL', KEYS[1], 'next')
return 1
