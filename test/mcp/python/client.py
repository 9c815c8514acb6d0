"""The official Python MCP SDK as a second, independent client of the tool server.

Usage: client.py <url> <mode> <unit>   (mode: auto = 2026-07-28 via server/discover, legacy = initialize)
Prints one JSON line: the negotiated revision, the tool names in order, and the get_token and bad-argument results.
"""
import asyncio
import json
import sys

from mcp.client.client import Client


async def main(url: str, mode: str, unit: str) -> None:
    async with Client(url, mode=mode) as client:
        tools = await client.list_tools()
        ok = await client.call_tool("get_token", {"unit": unit})
        bad = await client.call_tool("get_token", {"unit": "nope"})
        search = await client.call_tool("search", {"query": "usd", "limit": 3})
        print(
            json.dumps(
                {
                    "protocolVersion": client.protocol_version,
                    "tools": [t.name for t in tools.tools],
                    "readOnly": all(bool(t.annotations and t.annotations.read_only_hint) for t in tools.tools),
                    "token": ok.structured_content,
                    "tokenIsError": bool(ok.is_error),
                    "badIsError": bool(bad.is_error),
                    "badText": "".join(getattr(c, "text", "") for c in bad.content),
                    "searchHits": len((search.structured_content or {}).get("hits", [])),
                }
            )
        )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
