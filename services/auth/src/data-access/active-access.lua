-- An access token is active only while its client exists: one round trip on the introspection hot path.
local data = redis.call('GET', KEYS[1])
if not data then return false end
if redis.call('EXISTS', ARGV[1] .. 'client:' .. cjson.decode(data).clientId) == 0 then return false end
return data
