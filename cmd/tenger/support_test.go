package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"tenger/internal/apperr"
	"tenger/internal/notify/outbox"
)

func runSupportCmd(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := supportCommand(&out, strings.NewReader(stdin), args)
	return out.String(), err
}

// TestSupportCommand: a user opens a ticket on the running server; with
// the server stopped, the operator lists, reads and answers it (the owner
// is told through the outbox); the user reads the answer and replies;
// the operator closes it, and the user can add nothing more.
func TestSupportCommand(t *testing.T) {
	data := t.TempDir()
	_, c, stop := localServer(t, data)
	ctx := context.Background()
	token, err := benchSignUp(ctx, c, "helpme@example.com")
	if err != nil {
		t.Fatal(err)
	}
	var ticket struct{ ID, Status string }
	okData(t, c, "/fe-ex-api/question/create_problem", token, map[string]any{"type": "deposit", "title": "Where is my MNT?",
		"description": "I sent 50000 MNT with my user id yesterday."}, &ticket)
	stop()

	out, err := runSupportCmd(t, "", "--data", data, "list")
	if err != nil || !strings.Contains(out, ticket.ID) || !strings.Contains(out, "Where is my MNT?") || !strings.Contains(out, "1 tickets") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	out, err = runSupportCmd(t, "", "--data", data, "show", ticket.ID)
	if err != nil || !strings.Contains(out, "I sent 50000 MNT") || !strings.Contains(out, "open") {
		t.Fatalf("show: %v\n%s", err, out)
	}
	if _, err := runSupportCmd(t, "", "--data", data, "--as", "", "reply", ticket.ID, "x"); err == nil {
		t.Fatal("an answer without the operator's name")
	}
	out, err = runSupportCmd(t, "Found it: it was credited this morning.\nSorry for the wait.\n", "--data", data, "--as", "saraa", "reply", ticket.ID, "-")
	if err != nil || !strings.Contains(out, "answered "+ticket.ID) {
		t.Fatalf("reply: %v\n%s", err, out)
	}
	if out, _ := runSupportCmd(t, "", "--data", data, "list"); strings.Contains(out, ticket.ID) {
		t.Fatalf("an answered ticket is still in the open list:\n%s", out)
	}
	if out, _ := runSupportCmd(t, "", "--data", data, "--status", "answered", "list"); !strings.Contains(out, ticket.ID) {
		t.Fatalf("answered list:\n%s", out)
	}
	ob, err := outbox.Open(data + "/outbox")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ob.List(ctx)
	_ = ob.Close()
	if err != nil || len(entries) == 0 || entries[len(entries)-1].To != "helpme@example.com" {
		t.Fatalf("owner not told: %v %+v", err, entries)
	}
	if _, err := runSupportCmd(t, "", "--data", data, "--as", "saraa", "reply", "tnosuchticket1", "hello"); err == nil ||
		!strings.Contains(err.Error(), "not found") {
		t.Fatalf("unknown ticket: %v", err)
	}

	_, c, stop = localServer(t, data)
	var login struct{ Token string }
	okData(t, c, "/fe-ex-api/user/login_in", "", map[string]any{"email": "helpme@example.com", "loginPword": benchPassword}, &login)
	var detail struct {
		Status string
		Thread []struct{ By, Text string }
	}
	okData(t, c, "/fe-ex-api/question/details_problem", login.Token, map[string]any{"id": ticket.ID}, &detail)
	if detail.Status != "answered" || len(detail.Thread) != 2 || detail.Thread[1].By != "support" ||
		detail.Thread[1].Text != "Found it: it was credited this morning.\nSorry for the wait." {
		t.Fatalf("detail %+v", detail)
	}
	okData(t, c, "/fe-ex-api/question/reply_create", login.Token, map[string]any{"id": ticket.ID, "content": "Thanks!"}, &detail)
	if detail.Status != "open" {
		t.Fatalf("after the user's reply: %+v", detail)
	}
	stop()

	if out, err := runSupportCmd(t, "", "--data", data, "--as", "saraa", "close", ticket.ID); err != nil || !strings.Contains(out, "closed") {
		t.Fatalf("close: %v %s", err, out)
	}
	if _, err := runSupportCmd(t, "", "--data", data, "--as", "saraa", "close", ticket.ID); err == nil {
		t.Fatal("closed twice")
	}
	_, c, _ = localServer(t, data)
	okData(t, c, "/fe-ex-api/user/login_in", "", map[string]any{"email": "helpme@example.com", "loginPword": benchPassword}, &login)
	if env := call(t, c, "/fe-ex-api/question/reply_create", login.Token, map[string]any{"id": ticket.ID, "content": "One more"}); env.Code != apperr.CodeTicketClosed {
		t.Fatalf("reply to a closed ticket: %s %s", env.Code, env.Msg)
	}
}

// Usage errors are refused before the store is opened, and a store in use
// is named as such.
func TestSupportCommandArgs(t *testing.T) {
	for _, args := range [][]string{{}, {"show"}, {"reply", "t1"}, {"list", "x"}, {"delete", "t1"}} {
		if _, err := runSupportCmd(t, "", args...); err == nil {
			t.Fatalf("%v accepted", args)
		}
	}
	data := t.TempDir()
	_, _, stop := localServer(t, data)
	defer stop()
	if _, err := runSupportCmd(t, "", "--data", data, "list"); err == nil || !strings.Contains(err.Error(), "stop tenger serve") {
		t.Fatalf("store in use: %v", err)
	}
}

// uploadPNG sends a small PNG to /common/upload_img and returns its id.
func uploadPNG(t *testing.T, c *benchClient, token string) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	var file bytes.Buffer
	if err := png.Encode(&file, img); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("file", "screenshot.png")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(file.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, c.base+"/fe-ex-api/common/upload_img", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("exchange-token", token)
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Code string
		Msg  string
		Data struct{ ID string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env.Code != "0" || env.Data.ID == "" {
		t.Fatalf("upload: %v %+v", err, env)
	}
	return env.Data.ID
}

// Ticket attachments are checked against the upload service tenger serve
// wires: a user's own screenshot is taken, another user's is refused.
func TestSupportAttachmentsAreTheUsersUploads(t *testing.T) {
	_, c, _ := localServer(t, t.TempDir())
	ctx := context.Background()
	alice, err := benchSignUp(ctx, c, "alice@example.com")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := benchSignUp(ctx, c, "bob@example.com")
	if err != nil {
		t.Fatal(err)
	}
	shot := uploadPNG(t, c, alice)
	var d struct {
		Thread []struct{ Attachments []string }
	}
	okData(t, c, "/fe-ex-api/question/create_problem", alice, map[string]any{"type": "trading", "title": "Chart looks wrong",
		"description": "See the screenshot.", "attachments": []string{shot}}, &d)
	if len(d.Thread) != 1 || len(d.Thread[0].Attachments) != 1 || d.Thread[0].Attachments[0] != shot {
		t.Fatalf("ticket %+v", d)
	}
	if env := call(t, c, "/fe-ex-api/question/create_problem", bob, map[string]any{"type": "trading", "title": "Mine",
		"description": "Not my file.", "attachments": []string{shot}}); env.Code != apperr.CodeTicketAttachment {
		t.Fatalf("another user's upload: %s %s", env.Code, env.Msg)
	}
}
