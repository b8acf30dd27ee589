-- Never below zero, never a counter without a window (the key may have expired since the reservation).
for _, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count > 0 then redis.call('DECR', key) end
end
return 0
