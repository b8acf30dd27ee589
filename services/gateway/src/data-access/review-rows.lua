-- Rows newest first (KEYS: order, items, reports; ARGV: from time, oldest time, from id or '', count): the
-- checks of the time `from` whose id is not below the from id were listed already and are skipped. Returns
-- id, time, item and report (or '') per row, flat.
local order, items, reports = KEYS[1], KEYS[2], KEYS[3]
local from, oldest, after, count = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local ids, times = {}, {}
local offset = 0
while #ids < count do
  local batch = redis.call('ZREVRANGEBYSCORE', order, from, oldest, 'WITHSCORES', 'LIMIT', offset, count)
  for i = 1, #batch, 2 do
    local id, at = batch[i], batch[i + 1]
    local seen = after ~= '' and tonumber(at) == tonumber(from) and id >= after
    if not seen and #ids < count then
      ids[#ids + 1] = id
      times[#times + 1] = at
    end
  end
  if #batch < 2 * count then break end
  offset = offset + count
end
if #ids == 0 then return {} end
local values = redis.call('HMGET', items, unpack(ids))
local labels = redis.call('HMGET', reports, unpack(ids))
local out = {}
for i = 1, #ids do
  out[#out + 1] = ids[i]
  out[#out + 1] = times[i]
  out[#out + 1] = values[i] or ''
  out[#out + 1] = labels[i] or ''
end
return out
