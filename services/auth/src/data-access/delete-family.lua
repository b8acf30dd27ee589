-- Included by rotate.lua and revoke-family.lua (`--#include`), with `prefix` and the family key `fam` set:
-- deletes the family's tokens and the family, and leaves in `revoked` the hashes of the access tokens that
-- were still there.
local revoked = {}
for _, member in ipairs(redis.call('SMEMBERS', fam)) do
  local deleted = redis.call('DEL', prefix .. member)
  if deleted == 1 and string.sub(member, 1, 3) == 'at:' then
    table.insert(revoked, string.sub(member, 4))
  end
end
redis.call('DEL', fam)
