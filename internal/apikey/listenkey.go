package apikey

import (
	"context"
	"errors"
	"time"

	"tenger/internal/store"
)

// Listen keys name a user data stream (Binance's POST /api/v3/userDataStream;
// the stream is /ws/<listenKey>). A listen key belongs to the API key that
// opened it and lives ListenKeyTTL after it was opened or last kept
// alive; an API key has at most one: opening again answers the same one,
// kept alive. Deleting the API key ends its listen key too (Resolve fails
// for it, and ListenKeyOwner checks it).
//
// Items:
//
//	LISTENKEY#<listenKey> / LISTENKEY   the API key and user it serves, its expiry
//	APIKEY#<apiKey>       / LISTENKEY   the API key's listen key
//
// Both carry the store's ttl attribute, so expired keys go away by
// themselves (DynamoDB's TTL; the embedded store's sweep).

// ListenKeyTTL is how long a listen key lives without a keep-alive.
const ListenKeyTTL = 60 * time.Minute

// ErrUnknownListenKey: no such live listen key of this API key.
var ErrUnknownListenKey = errors.New("apikey: unknown listen key")

const (
	attrListenKey = "listenKey"
	attrAPIKey    = "apiKey"
	attrExpires   = "expiresAt"
)

func listenKeyItem(listenKey string) store.Key {
	return store.Key{PK: "LISTENKEY#" + listenKey, SK: "LISTENKEY"}
}

func listenKeyOf(apiKey string) store.Key {
	return store.Key{PK: lookupKey(apiKey).PK, SK: "LISTENKEY"}
}

// OpenListenKey answers the API key's live listen key, kept alive, or
// opens a new one.
func (s *Service) OpenListenKey(ctx context.Context, r Resolved) (string, error) {
	now := s.o.Now()
	if it, err := s.o.Store.Get(ctx, listenKeyOf(r.APIKey)); err == nil {
		lk := it.Str(attrListenKey)
		if err := s.KeepListenKey(ctx, r, lk); err == nil {
			return lk, nil
		} else if !errors.Is(err, ErrUnknownListenKey) {
			return "", err
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", internal(err)
	}
	lk := randomToken(KeyLen)
	exp := now.Add(ListenKeyTTL)
	err := s.o.Store.Transact(ctx, []store.Op{
		store.PutOp(store.Item{store.AttrPK: listenKeyItem(lk).PK, store.AttrSK: listenKeyItem(lk).SK,
			attrAPIKey: r.APIKey, attrUID: r.UserID, attrExpires: exp.UnixMilli(), store.AttrTTL: exp.Unix()}, store.ItemNotExists()),
		store.PutOp(store.Item{store.AttrPK: listenKeyOf(r.APIKey).PK, store.AttrSK: listenKeyOf(r.APIKey).SK,
			attrListenKey: lk, store.AttrTTL: exp.Unix()}, nil),
	})
	if err != nil {
		return "", internal(err)
	}
	return lk, nil
}

// KeepListenKey extends a live listen key of the API key by ListenKeyTTL.
func (s *Service) KeepListenKey(ctx context.Context, r Resolved, listenKey string) error {
	now := s.o.Now()
	exp := now.Add(ListenKeyTTL)
	err := s.o.Store.Transact(ctx, []store.Op{
		store.UpdateOp(listenKeyItem(listenKey), store.NewUpdate().Set(attrExpires, exp.UnixMilli()).Set(store.AttrTTL, exp.Unix()),
			store.And(store.Eq(attrAPIKey, r.APIKey), store.Compare(attrExpires, store.CmpGt, now.UnixMilli()))),
		store.UpdateOp(listenKeyOf(r.APIKey), store.NewUpdate().Set(store.AttrTTL, exp.Unix()), store.Eq(attrListenKey, listenKey)),
	})
	if errors.Is(err, store.ErrConditionFailed) {
		return ErrUnknownListenKey
	}
	if err != nil {
		return internal(err)
	}
	return nil
}

// CloseListenKey ends a listen key of the API key.
func (s *Service) CloseListenKey(ctx context.Context, r Resolved, listenKey string) error {
	err := s.o.Store.Transact(ctx, []store.Op{
		store.DeleteOp(listenKeyItem(listenKey), store.Eq(attrAPIKey, r.APIKey)),
		store.DeleteOp(listenKeyOf(r.APIKey), store.Eq(attrListenKey, listenKey)),
	})
	if errors.Is(err, store.ErrConditionFailed) {
		return ErrUnknownListenKey
	}
	if err != nil {
		return internal(err)
	}
	return nil
}

// ListenKeyOwner is the API key and the user a live listen key serves:
// ErrUnknownListenKey when it does not exist, expired, or its API key was
// deleted.
func (s *Service) ListenKeyOwner(ctx context.Context, listenKey string) (apiKey, uid string, err error) {
	apiKey, uid, err = readListenKey(ctx, s.o.Store, listenKey, s.o.Now())
	if err != nil {
		return "", "", err
	}
	if _, err := s.Resolve(ctx, apiKey); err != nil {
		if errors.Is(err, ErrUnknownKey) {
			return "", "", ErrUnknownListenKey
		}
		return "", "", err
	}
	return apiKey, uid, nil
}

// LookupListenKey is ListenKeyOwner for a process without the service
// (the AWS functions that stream user data hold no sealing key): the API
// key's existence is read with Owner, uncached.
func LookupListenKey(ctx context.Context, st store.Store, listenKey string, now time.Time) (apiKey, uid string, err error) {
	apiKey, uid, err = readListenKey(ctx, st, listenKey, now)
	if err != nil {
		return "", "", err
	}
	owner, err := Owner(ctx, st, apiKey)
	if errors.Is(err, ErrUnknownKey) || (err == nil && owner != uid) {
		return "", "", ErrUnknownListenKey
	}
	if err != nil {
		return "", "", internal(err)
	}
	return apiKey, uid, nil
}

// readListenKey reads a live listen key's item.
func readListenKey(ctx context.Context, st store.Store, listenKey string, now time.Time) (apiKey, uid string, err error) {
	if len(listenKey) != KeyLen {
		return "", "", ErrUnknownListenKey
	}
	it, err := st.Get(ctx, listenKeyItem(listenKey))
	if errors.Is(err, store.ErrNotFound) {
		return "", "", ErrUnknownListenKey
	}
	if err != nil {
		return "", "", internal(err)
	}
	if it.Int(attrExpires) <= now.UnixMilli() {
		return "", "", ErrUnknownListenKey
	}
	return it.Str(attrAPIKey), it.Str(attrUID), nil
}
