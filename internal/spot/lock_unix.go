//go:build unix

package spot

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's exclusive advisory lock without waiting; ok is false
// while another process (or another open file) holds it.
func tryLock(f *os.File) (ok bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
