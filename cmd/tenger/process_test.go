package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

// server is a `tenger serve` child process.
type server struct {
	t    *testing.T
	bin  string
	data string
	addr string
	cmd  *exec.Cmd
	logs *bytes.Buffer
	// extra flags for serve
	extra []string
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
	buildDir  string
)

// buildBinary builds the tenger binary once per test run.
func buildBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "tenger-bin-")
		if buildErr != nil {
			return
		}
		builtBin = filepath.Join(buildDir, "tenger")
		var out []byte
		out, buildErr = exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if buildErr != nil {
			buildErr = fmt.Errorf("%v\n%s", buildErr, out)
		}
	})
	if buildErr != nil {
		t.Fatalf("build: %v", buildErr)
	}
	return builtBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func (s *server) start() {
	s.t.Helper()
	s.logs = &bytes.Buffer{}
	args := append([]string{"serve", "--addr", s.addr, "--data", s.data, "--dev", "--web", s.t.TempDir()}, s.extra...)
	s.cmd = exec.Command(s.bin, args...)
	s.cmd.Stderr = s.logs
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + s.addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("server did not start:\n%s", s.logs.String())
}

func (s *server) kill() {
	s.t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	_ = s.cmd.Wait()
}

// client is the tests' API client: tenger bench's keep-alive client with
// test failures instead of errors.
type client struct {
	t     *testing.T
	api   *benchClient
	token string
}

func newClient(t *testing.T, base string) *client {
	return &client{t: t, api: &benchClient{base: base, hc: http.DefaultClient}}
}

// do sends one API call; transport failures are returned, not fatal.
func (c *client) do(path string, body any) (envelope, int, error) {
	return c.api.do(context.Background(), path, c.token, body)
}

func (c *client) call(path string, body any) envelope {
	c.t.Helper()
	env, status, err := c.do(path, body)
	if err != nil {
		c.t.Fatalf("%s: %v", path, err)
	}
	if status >= 500 {
		c.t.Fatalf("%s: HTTP %d", path, status)
	}
	return env
}

func (c *client) ok(path string, body any) json.RawMessage {
	c.t.Helper()
	env := c.call(path, body)
	if env.Code != "0" {
		c.t.Fatalf("%s: code %s %s", path, env.Code, env.Msg)
	}
	return env.Data
}

func (c *client) lastCode(to string) string {
	c.t.Helper()
	code, err := c.api.lastCode(context.Background(), to)
	if err != nil {
		c.t.Fatal(err)
	}
	return code
}

// TestJudgedFlowSurvivesKill walks the sign-up path a new user takes, kills
// the server with SIGKILL right after acknowledged writes, restarts it and
// finds everything as it was.
func TestJudgedFlowSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := &server{t: t, bin: buildBinary(t), data: t.TempDir(), addr: freeAddr(t)}
	s.start()
	defer func() { s.kill() }()
	c := newClient(t, "http://"+s.addr)

	email := "new.user@example.mn"
	c.ok("/fe-ex-api/v4/common/emailValidCode", map[string]any{"email": email, "operationType": 1})
	code := c.lastCode(email)
	c.ok("/fe-ex-api/user/register", map[string]any{"email": email, "loginPword": "Passw0rd1", "code": code})
	// A reused code is refused.
	if env := c.call("/fe-ex-api/user/register", map[string]any{"email": "other@example.mn", "loginPword": "Passw0rd1", "code": code}); env.Code == "0" {
		t.Fatal("registration code reused for another address")
	}
	var login struct {
		Token string `json:"token"`
		Type  string `json:"type"`
	}
	json.Unmarshal(c.ok("/fe-ex-api/user/login_in", map[string]any{"email": email, "loginPword": "Passw0rd1"}), &login)
	if login.Token == "" || login.Type != "" {
		t.Fatalf("login: %+v", login)
	}
	c.token = login.Token
	var info struct {
		ID          string `json:"id"`
		Email       string `json:"email"`
		GoogleState int    `json:"googleStatus"`
	}
	json.Unmarshal(c.ok("/fe-ex-api/common/user_info", map[string]any{}), &info)
	if info.Email != email || info.ID == "" {
		t.Fatalf("user_info: %+v", info)
	}

	// Turn on the Google authenticator.
	var ga struct {
		Secret string `json:"secret"`
	}
	json.Unmarshal(c.ok("/fe-ex-api/user/toopen_google_authenticator", map[string]any{}), &ga)
	now := time.Now()
	g1, _ := totp.GenerateCode(ga.Secret, now)
	c.ok("/fe-ex-api/user/google_verify", map[string]any{"googleCode": g1, "loginPwd": "Passw0rd1"})
	// Acknowledged: kill at once, without a graceful shutdown.
	s.kill()
	s.start()

	c.ok("/fe-ex-api/user/login_out", map[string]any{})
	if env := c.call("/fe-ex-api/common/user_info", map[string]any{}); env.Code != "10002" {
		t.Fatalf("after logout: %s", env.Code)
	}
	c.token = ""
	json.Unmarshal(c.ok("/fe-ex-api/user/login_in", map[string]any{"email": email, "loginPword": "Passw0rd1"}), &login)
	if login.Type != "google" || login.Token == "" {
		t.Fatalf("want a google challenge, got %+v", login)
	}
	// The next time step's code (the previous one was used to turn it on).
	g2, _ := totp.GenerateCode(ga.Secret, now.Add(30*time.Second))
	var done struct {
		Token string `json:"token"`
	}
	json.Unmarshal(c.ok("/fe-ex-api/user/confirm_login", map[string]any{"token": login.Token, "authCode": g2}), &done)
	if done.Token == "" {
		t.Fatal("no session after the second factor")
	}
	c.token = done.Token
	s.kill()
	s.start()
	json.Unmarshal(c.ok("/fe-ex-api/common/user_info", map[string]any{}), &info)
	if info.Email != email || info.GoogleState != 1 {
		t.Fatalf("after restart: %+v", info)
	}
	// The outbox survived too.
	if got := c.lastCode(email); got != code {
		t.Fatalf("outbox lost its entries: %s", got)
	}
}

// TestGracefulShutdown: SIGTERM stops the server cleanly with exit code 0.
func TestGracefulShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := &server{t: t, bin: buildBinary(t), data: t.TempDir(), addr: freeAddr(t)}
	s.start()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, s.logs.String())
		}
	case <-time.After(20 * time.Second):
		s.kill()
		t.Fatal("server did not stop on SIGTERM")
	}
	if !strings.Contains(s.logs.String(), "shutting down") {
		t.Fatalf("no shutdown log:\n%s", s.logs.String())
	}
	// The data directory opens again (the store's lock was released).
	s.start()
	s.kill()
}
