package ledger

import (
	"strings"
	"sync"

	"tenger/internal/store"
)

// knownBalances remembers balance items this process has seen committed.
// Balance items are never deleted, so once one exists it keeps the owner,
// kind, sub, coin and index attributes written when it was created, and
// later updates need not carry them (six set-if-missing actions fewer per
// balance, which is most of a posting's allocations). Forgetting is always
// safe: an unknown balance simply gets the set-if-missing actions again,
// which are no-ops on an existing item.
type knownBalances struct {
	mu sync.RWMutex
	m  map[store.Key]struct{}
}

// maxKnownBalances bounds the memory: when full, the set starts again.
const maxKnownBalances = 1 << 18

func (k *knownBalances) has(pk, sk string) bool {
	k.mu.RLock()
	_, ok := k.m[store.Key{PK: pk, SK: sk}]
	k.mu.RUnlock()
	return ok
}

// addOps records the balance items among committed operations.
func (k *knownBalances) addOps(ops []store.Op) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, op := range ops {
		if op.Kind != store.OpUpdate || !strings.HasPrefix(op.Key.PK, "BAL#") {
			continue
		}
		if k.m == nil || len(k.m) >= maxKnownBalances {
			k.m = make(map[store.Key]struct{}, 1024)
		}
		k.m[op.Key] = struct{}{}
	}
}
