package apikey

import (
	"context"

	"tenger/internal/store"
)

// Revocation is the removal of every API key of a user, to commit in the
// caller's transaction (an account's cancellation): the keys stop working
// exactly when, and only if, the caller's change is stored.
type Revocation struct {
	// Keys are the keys removed (for the caller's record).
	Keys []string
	// Ops delete each key's two items and reset the user's key count, on
	// condition that the count is still what was read: a key created
	// meanwhile fails the transaction rather than surviving it.
	Ops []store.Op
	svc *Service
}

// Done forgets the removed keys in this process's cache once the
// transaction is stored (other processes read keys on every request, or
// for at most CacheTTL).
func (r Revocation) Done() {
	for _, k := range r.Keys {
		r.svc.forget(k)
	}
}

// RevokeAll prepares the removal of every key of uid (OpsPerKey store
// operations per key, plus one).
func (s *Service) RevokeAll(ctx context.Context, uid string) (Revocation, error) {
	keys, err := s.List(ctx, uid)
	if err != nil {
		return Revocation{}, err
	}
	r := Revocation{svc: s}
	for _, k := range keys {
		r.Keys = append(r.Keys, k.APIKey)
		r.Ops = append(r.Ops,
			store.DeleteOp(lookupKey(k.APIKey), store.Eq(attrUID, uid)),
			store.DeleteOp(ownerKey(uid, k.APIKey), store.ItemExists()))
	}
	n := int64(len(keys))
	cond := store.Eq(attrCount, n)
	if n == 0 {
		cond = store.Or(store.NotExists(attrCount), store.Eq(attrCount, 0))
	}
	r.Ops = append(r.Ops, store.UpdateOp(countKey(uid), store.NewUpdate().Set(attrCount, 0), cond))
	return r, nil
}

// OpsPerKey is how many store operations RevokeAll needs per key.
const OpsPerKey = 2
