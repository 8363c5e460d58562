// Command amqpcall sends one request to the amqp app and prints the
// reply: its status on stderr, its body on stdout.
//
//	amqpcall [flags] TYPE [name=value ...]
//
// TYPE is the operation (login, person.get, vacancy.list, ...); each
// name=value is a parameter header (id=1, limit=10, status=open). -body
// is the JSON body; -login user:password logs in first and sends the
// token. AMQP_URL and AMQP_QUEUE name the broker and the queue, as for the
// app.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"crudbench/apps/amqp/amqprpc"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "amqpcall:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("amqpcall", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", or(getenv("AMQP_URL"), "amqp://guest:guest@localhost:5672/"), "the broker's AMQP `url` (env AMQP_URL)")
	queue := fs.String("queue", or(getenv("AMQP_QUEUE"), amqprpc.DefaultQueue), "the request queue (env AMQP_QUEUE)")
	token := fs.String("token", "", "a bearer `token` to send")
	login := fs.String("login", "", "log in first as `user:password` and send the token")
	body := fs.String("body", "", "the request's JSON `body`")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for the reply, sent as the request's expiration")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: amqpcall [flags] TYPE [name=value ...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return errors.New("name the operation (TYPE)")
	}
	req := amqprpc.Request{Type: fs.Arg(0), Params: map[string]string{}, Token: *token}
	for _, kv := range fs.Args()[1:] {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("parameter %q: want name=value", kv)
		}
		req.Params[name] = value
	}
	if *body != "" {
		req.Body = []byte(*body)
	}

	c, err := amqprpc.Dial(*url, *queue)
	if err != nil {
		return err
	}
	defer c.Close()
	if *login != "" {
		if req.Token, err = logIn(ctx, c, *login, *timeout); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	reply, err := c.Call(ctx, req)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "status %d", reply.Status)
	if reply.RetryAfter != "" {
		fmt.Fprintf(stderr, " (retry after %s s)", reply.RetryAfter)
	}
	fmt.Fprintln(stderr)
	if len(reply.Body) > 0 {
		stdout.Write(reply.Body)
		fmt.Fprintln(stdout)
	}
	return nil
}

// logIn sends a login as user:password and returns the token.
func logIn(ctx context.Context, c *amqprpc.Client, credentials string, timeout time.Duration) (string, error) {
	user, password, ok := strings.Cut(credentials, ":")
	if !ok {
		return "", errors.New("-login: want user:password")
	}
	body, _ := json.Marshal(map[string]string{"username": user, "password": password})
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	reply, err := c.Call(ctx, amqprpc.Request{Type: "login", Body: body})
	if err != nil {
		return "", fmt.Errorf("log in: %w", err)
	}
	var answer struct{ Token string }
	if reply.Status != 200 || json.Unmarshal(reply.Body, &answer) != nil || answer.Token == "" {
		return "", fmt.Errorf("log in: status %d: %s", reply.Status, reply.Body)
	}
	return answer.Token, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
