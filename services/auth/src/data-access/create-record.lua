-- A record only where there is none yet, with its id in the index set.
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
redis.call('SADD', KEYS[2], ARGV[2])
return 1
