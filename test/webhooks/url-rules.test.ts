// The SSRF rules for webhook URLs: what an endpoint's URL may name when it is
// set, and what a delivery may connect to.
import { describe, expect, it } from "vitest";
import { urlProblem } from "../../src/domain/webhook-url.js";
import { checkWebhookUrl, guardedLookup } from "../../src/services/webhook-url-check.js";

const strict = { allowHttp: false, allowPrivateNetworks: false };

describe("webhook URLs", () => {
  it.each([
    ["http://93.184.215.14/hook", "must be an https URL"],
    ["ftp://93.184.215.14/hook", "must be an https URL"],
    ["not a url", "absolute URL"],
    ["https://user:pw@93.184.215.14/", "user name or password"],
  ])("refuses %s", (url, message) => {
    expect(urlProblem(url, strict)).toContain(message);
  });

  it.each([
    ["https://127.0.0.1/", "loopback"],
    ["https://2130706433/", "loopback"],
    ["https://localhost:8443/", "loopback"],
    ["https://api.localhost/", "loopback"],
    ["https://10.1.2.3/", "private"],
    ["https://172.16.0.1/", "private"],
    ["https://192.168.1.1/", "private"],
    ["https://169.254.169.254/latest/meta-data", "linkLocal"],
    ["https://100.64.0.1/", "carrierGradeNat"],
    ["https://0.0.0.0/", "unspecified"],
    ["https://[::1]/", "loopback"],
    ["https://[fd00:ec2::254]/", "uniqueLocal"],
    ["https://[fe80::1]/", "linkLocal"],
    ["https://[::ffff:127.0.0.1]/", "loopback"],
    ["https://[::ffff:10.0.0.1]/", "private"],
    // IPv4-compatible (::a.b.c.d, deprecated), SIIT (::ffff:0:a.b.c.d), NAT64 and 6to4 forms carrying a private address.
    ["https://[::127.0.0.1]/", "loopback"],
    ["https://[::10.0.0.1]/", "private"],
    ["https://[::169.254.169.254]/", "linkLocal"],
    ["https://[::ffff:0:127.0.0.1]/", "loopback"],
    ["https://[64:ff9b::127.0.0.1]/", "loopback"],
    ["https://[64:ff9b::192.168.0.1]/", "private"],
    ["https://[2002:7f00:1::1]/", "loopback"],
    ["https://[2002:a9fe:a9fe::]/", "linkLocal"],
  ])("refuses the non-public address of %s (%s)", (url, range) => {
    expect(urlProblem(url, strict)).toContain(` is ${range})`);
  });

  it.each([
    ["https://[::93.184.215.14]/", "ipv4Compatible"],
    ["https://[64:ff9b::93.184.215.14]/", "rfc6052"],
    ["https://[2002:5db8:d70e::1]/", "6to4"],
    ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "teredo"],
  ])("refuses %s, a translated form even of a public IPv4 address (%s)", (url, range) => {
    expect(urlProblem(url, strict)).toContain(` is ${range})`);
  });

  it("at delivery, refuses a host that resolves to an address carrying a private IPv4 address", async () => {
    // The lookup every delivery connects through; an IP literal resolves to itself.
    const lookupError = (host: string) =>
      new Promise<Error | null>((resolve) => guardedLookup(strict)(host, {}, (error) => resolve(error)));
    expect((await lookupError("::127.0.0.1"))?.message).toContain("(loopback)");
    expect((await lookupError("64:ff9b::a00:1"))?.message).toContain("(private)");
    expect(await lookupError("93.184.215.14")).toBeNull();
  });

  it("refuses control characters, which PostgreSQL or the URL parser would not keep as sent", () => {
    for (const url of [
      "https://93.184.215.14/a\u0000b",
      "https://93.184.215.14/\u0000",
      "https://93.184.215.14/a\u0007",
    ]) {
      expect(urlProblem(url, strict)).toContain("control character");
    }
  });

  it("accepts a public https address, and private or http ones only when configuration allows", () => {
    expect(urlProblem("https://93.184.215.14/hooks", strict)).toBeNull();
    expect(urlProblem("http://127.0.0.1:9/", { allowHttp: true, allowPrivateNetworks: true })).toBeNull();
    expect(urlProblem("http://127.0.0.1:9/", { allowHttp: true, allowPrivateNetworks: false })).toContain(
      "loopback",
    );
  });

  it("refuses a host name that resolves to a private address, checking every address", async () => {
    const resolve = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    expect(await checkWebhookUrl("https://hooks.example.test/x", strict, resolve)).toContain("10.0.0.7");
    const unresolvable = async () => {
      throw new Error("ENOTFOUND");
    };
    expect(await checkWebhookUrl("https://nowhere.example.test/x", strict, unresolvable)).toContain(
      "resolves",
    );
  });
});
