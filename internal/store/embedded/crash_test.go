package embedded

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"tenger/internal/store"
)

// crashDirEnv, when set, turns the test binary into the crash test's child:
// it writes to the store in that directory until it is killed.
const crashDirEnv = "TENGER_EMBEDDED_CRASH_CHILD_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashDirEnv); dir != "" {
		crashChild(dir)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const crashWorkers = 8

// crashChild writes from several goroutines and prints a line for every
// acknowledged write: "put <sk>" for a new item, "ctr <worker> <value>" for
// a counter increment done in a transaction with a new item, "hot <n>" for
// an increment of a shared counter that returned n.
func crashChild(dir string) {
	s, err := Open(dir, Options{SweepInterval: -1})
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	ack := func(line string) {
		mu.Lock()
		// Flushed at once: a line printed is a write acknowledged.
		out.WriteString(line + "\n")
		out.Flush()
		mu.Unlock()
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := 0; w < crashWorkers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ctr := store.Key{PK: "ctr", SK: strconv.Itoa(w)}
			for i := 1; ; i++ {
				sk := fmt.Sprintf("%d-%06d", w, i)
				if i%3 == 0 {
					// All workers increment one hot counter: writes to it are
					// pipelined, so acknowledgements must still mean durable.
					it, err := s.Update(ctx, store.Key{PK: "hot", SK: "ctr"}, store.NewUpdate().AddInt("n", 1), nil)
					if err != nil {
						fmt.Fprintln(os.Stderr, "hot:", err)
						os.Exit(3)
					}
					ack(fmt.Sprintf("hot %d", it.Int("n")))
					continue
				}
				if i%3 == 1 {
					if err := s.Put(ctx, store.Item{"pk": "put", "sk": sk, "i": i}, store.ItemNotExists()); err != nil {
						fmt.Fprintln(os.Stderr, "put:", err)
						os.Exit(3)
					}
					ack("put " + sk)
					continue
				}
				err := s.Transact(ctx, []store.Op{
					store.UpdateOp(ctr, store.NewUpdate().AddInt("n", 1), nil),
					store.PutOp(store.Item{"pk": "tx", "sk": sk}, store.ItemNotExists()),
				})
				if err != nil {
					fmt.Fprintln(os.Stderr, "transact:", err)
					os.Exit(3)
				}
				ack("tx " + sk)
			}
		}(w)
	}
	wg.Wait()
}

func TestCrashDurability(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+dir)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var acked []string
	sc := bufio.NewScanner(stdout)
	killed := false
	deadline := time.Now().Add(20 * time.Second)
	for sc.Scan() {
		acked = append(acked, sc.Text())
		// Kill mid-stream, without warning, once plenty has been acknowledged.
		if !killed && (len(acked) >= 1000 || time.Now().After(deadline)) {
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	_ = cmd.Wait()
	if !killed || len(acked) < 1000 {
		t.Fatalf("child stopped by itself after %d acknowledged writes", len(acked))
	}

	s := openTest(t, dir, Options{SweepInterval: -1})
	ctx := context.Background()
	txCount := make([]int64, crashWorkers)
	var hotAcked, hotMax int64
	for _, line := range acked {
		kind, sk, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		if kind == "hot" {
			n, _ := strconv.ParseInt(sk, 10, 64)
			hotAcked++
			hotMax = max(hotMax, n)
			continue
		}
		if _, err := s.Get(ctx, store.Key{PK: kind, SK: sk}); err != nil {
			t.Fatalf("acknowledged %s %s lost after SIGKILL: %v", kind, sk, err)
		}
		if kind == "tx" {
			w, _ := strconv.Atoi(strings.SplitN(sk, "-", 2)[0])
			txCount[w]++
		}
	}
	// The hot counter holds at least the highest acknowledged value (every
	// increment before it in commit order is durable with it), and at most
	// the acknowledged increments plus one in flight per worker.
	hot, err := s.Get(ctx, store.Key{PK: "hot", SK: "ctr"})
	if err != nil {
		t.Fatal(err)
	}
	if n := hot.Int("n"); n < hotMax || n < hotAcked || n > hotAcked+crashWorkers {
		t.Fatalf("hot counter = %d; acknowledged %d increments, highest value %d", n, hotAcked, hotMax)
	}
	// Each counter holds its acknowledged increments, plus at most the one
	// that was in flight, and always exactly as many as its transactions'
	// items (the transaction was atomic).
	for w := 0; w < crashWorkers; w++ {
		ctr, err := s.Get(ctx, store.Key{PK: "ctr", SK: strconv.Itoa(w)})
		n := ctr.Int("n")
		if txCount[w] > 0 && err != nil {
			t.Fatalf("counter %d: %v", w, err)
		}
		if n != txCount[w] && n != txCount[w]+1 {
			t.Fatalf("counter %d = %d, acknowledged %d", w, n, txCount[w])
		}
		items := 0
		q := store.Query{PK: "tx", SK: store.SKPrefixed(fmt.Sprintf("%d-", w))}
		for {
			p, err := s.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			items += len(p.Items)
			if p.Cursor == "" {
				break
			}
			q.Cursor = p.Cursor
		}
		if int64(items) != n {
			t.Fatalf("worker %d: counter %d but %d transaction items", w, n, items)
		}
	}
	// The feed survived in rising order, and the store keeps working.
	// Sequences are reserved before a batch enters the WAL, and writers of
	// different keys may enter it in another order than their sequences, so
	// a write in flight at the kill can leave a hole: its sequences were
	// reserved, a later one reached the WAL, its own batch never did. It was
	// not acknowledged (its fsync never ran), and a hole is what a failed
	// commit leaves too. Holes come only from writes in flight: at most one
	// per worker, two sequences each.
	var total, holes int
	var lastID uint64
	cp := ""
	for {
		batch, next, err := s.Changes().Read(ctx, cp, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(batch) == 0 {
			break
		}
		for _, c := range batch {
			total++
			id, err := strconv.ParseUint(c.ID, 10, 64)
			if err != nil || id <= lastID {
				t.Fatalf("feed out of order: change %s after %d", c.ID, lastID)
			}
			holes += int(id - lastID - 1)
			lastID = id
		}
		cp = next
	}
	if holes > 2*crashWorkers {
		t.Fatalf("feed has %d missing sequences; writes in flight could leave at most %d", holes, 2*crashWorkers)
	}
	// Every acknowledged put made one change, every transaction two; the
	// writes in flight at the kill (at most one per worker) may add more.
	want := 0
	for _, line := range acked {
		if strings.HasPrefix(line, "tx ") {
			want += 2
		} else {
			want++
		}
	}
	if total < want || total > want+2*crashWorkers {
		t.Fatalf("feed holds %d changes, acknowledged writes made %d", total, want)
	}
	if err := s.Put(ctx, store.Item{"pk": "after", "sk": "crash"}, store.ItemNotExists()); err != nil {
		t.Fatalf("write after recovery: %v", err)
	}
	if batch, _, err := s.Changes().Read(ctx, cp, 10); err != nil || len(batch) != 1 || batch[0].Key.PK != "after" {
		t.Fatalf("feed after recovery: %+v %v", batch, err)
	}
	t.Logf("%d acknowledged writes survived SIGKILL; feed holds %d changes, %d sequences left unused", len(acked), total, holes)
}
