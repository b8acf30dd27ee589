-- Removes a signature from a client's index if its time there is still the withdrawn field's (KEYS: the
-- index; ARGV: the signature's hash, the time): a report of the client since has a later time, and stays.
if tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1])) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
