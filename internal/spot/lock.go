package spot

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"
)

// One engine per data directory. Two engines on one journal would both
// sequence and match the same commands: a new engine task that starts
// while the old one is still stopping (ECS may start the replacement
// during the old task's stop timeout) would recover before the old one
// has journalled and settled its last batch, and that batch's orders
// would be stored as accepted, holding funds, in no book. So NewEngine
// (with EngineOptions.Exclusive, as the runtimes run it) takes an
// exclusive lock on lockFile in the data directory first and waits for it (an advisory file lock: on Linux, over NFS too, as on the
// engine's EFS volume, where a dead task's lock lapses with its lease).
// The lock is held until Stop.
const lockFile = "engine.lock"

// lockRetry is how often a waiting engine tries the lock again.
const lockRetry = 500 * time.Millisecond

// lockDataDir takes the data directory's engine lock, waiting while
// another engine holds it, until ctx ends. release gives it up.
func lockDataDir(ctx context.Context, dir string, log zerolog.Logger) (release func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	logged := false
	for {
		ok, err := tryLock(f)
		if err != nil {
			_ = f.Close()
			return nil, err
		}
		if ok {
			return func() { unlock(f); _ = f.Close() }, nil
		}
		if !logged {
			log.Warn().Str("dir", dir).Msg("spot: another engine holds the data directory; waiting for it to stop")
			logged = true
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, ctx.Err()
		case <-time.After(lockRetry):
		}
	}
}
