package p2p

import (
	"context"
	"errors"

	"tenger/internal/apperr"
	"tenger/internal/store"
)

// Relations a user keeps with another trader (person_relationship).
const (
	// RelationFollow keeps a trader among the user's contacts.
	RelationFollow = "follow"
	// RelationBlock blocks a trader: neither opens an order on the other's
	// ads, and the user's searches leave the trader's ads out.
	RelationBlock = "block"
)

// MaxRelations bounds a user's contacts and blocks together.
const MaxRelations = 500

// Relation is one of the user's contacts or blocks.
type Relation struct {
	UID      string `json:"uid"`
	Nick     string `json:"nickName"`
	Relation string `json:"relation" doc:"follow or block"`
	At       int64  `json:"ctime"`
}

func relationKey(uid, other string) store.Key {
	return store.Key{PK: "P2PUSER#" + uid, SK: "REL#" + other}
}

// SetRelation follows or blocks another trader.
func (s *Service) SetRelation(ctx context.Context, uid, other, relation string) error {
	if relation != RelationFollow && relation != RelationBlock {
		return apperr.New(apperr.CodeP2PRelation, "relation must be follow or block")
	}
	if other == "" || other == uid || len(other) > 64 {
		return apperr.New(apperr.CodeP2PRelation, "uid")
	}
	list, err := s.Relations(ctx, uid)
	if err != nil {
		return err
	}
	if len(list) >= MaxRelations {
		return apperr.New(apperr.CodeP2PRelation, "too many contacts")
	}
	k := relationKey(uid, other)
	return internal(s.o.Store.Put(ctx, store.Item{store.AttrPK: k.PK, store.AttrSK: k.SK, "uid": other, "relation": relation,
		"at": ms(s.o.Now())}, nil))
}

// RemoveRelation forgets a contact or lifts a block (user_contacts_remove).
func (s *Service) RemoveRelation(ctx context.Context, uid, other string) error {
	if other == "" || len(other) > 64 {
		return apperr.New(apperr.CodeP2PRelation, "uid")
	}
	return internal(s.o.Store.Delete(ctx, relationKey(uid, other), nil))
}

// Relations lists the user's contacts and blocks.
func (s *Service) Relations(ctx context.Context, uid string) ([]Relation, error) {
	out := []Relation{}
	q := store.Query{PK: "P2PUSER#" + uid, SK: store.SKPrefixed("REL#")}
	err := store.EachLive(ctx, s.o.Store, q, s.o.Now(), func(it store.Item) {
		out = append(out, Relation{UID: it.Str("uid"), Relation: it.Str("relation"), At: it.Int("at")})
	})
	if err != nil {
		return nil, internal(err)
	}
	for i := range out {
		if s.o.Profiles != nil {
			if p, err := s.o.Profiles.P2PProfile(ctx, out[i].UID); err == nil {
				out[i].Nick = p.Nick
			}
		}
	}
	return out, nil
}

// blocked reports whether either user blocked the other.
func (s *Service) blocked(ctx context.Context, a, b string) (bool, error) {
	for _, k := range []store.Key{relationKey(a, b), relationKey(b, a)} {
		it, err := s.o.Store.Get(ctx, k)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, internal(err)
		}
		if it.Str("relation") == RelationBlock {
			return true, nil
		}
	}
	return false, nil
}

// blockedSet is the traders the user blocked (searches leave them out).
func (s *Service) blockedSet(ctx context.Context, uid string) (map[string]bool, error) {
	out := map[string]bool{}
	if uid == "" {
		return out, nil
	}
	list, err := s.Relations(ctx, uid)
	if err != nil {
		return nil, err
	}
	for _, r := range list {
		if r.Relation == RelationBlock {
			out[r.UID] = true
		}
	}
	return out, nil
}
