-- Withdraws a client from a signature if the report that last carried it there is the dropped one (KEYS: the
-- signature's hash; ARGV: the client's field, the dropped report's ref). A field is `<time> <ref>`; a report of
-- the client since wrote another ref, and stays. Answers the value it deleted, or nil.
local value = redis.call('HGET', KEYS[1], ARGV[1])
if value and string.sub(value, -#ARGV[2] - 1) == ' ' .. ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  return value
end
return false
