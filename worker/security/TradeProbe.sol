// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IBalance {
    function balanceOf(address) external view returns (uint256);
}

interface IPairV2 {
    function getReserves() external view returns (uint112, uint112, uint32);
    function token0() external view returns (address);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface IPoolV3 {
    function token0() external view returns (address);
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1);
}

/// Never deployed: the security check runs it by eth_call as the code of an address whose quote
/// balance it overrides (worker/security/trade.ts). It buys `token` with `quoteIn` of `quote` in
/// `pool`, then sells all it received, and reports for each leg what an untaxed token would have
/// given and what arrived. A reverting sell is an answer (sold = false), not a failed call.
/// No constructor, no immutables, no storage: runtime code only.
contract TradeProbe {
    uint160 private constant MIN_SQRT_RATIO = 4295128739;
    uint160 private constant MAX_SQRT_RATIO = 1461446703485210103287583348575128412;

    struct Result {
        bool bought;
        uint256 buyExpected;
        uint256 buyReceived;
        bool sold;
        uint256 sellExpected;
        uint256 sellReceived;
    }

    function probe(address pool, bool v3, address token, address quote, uint256 quoteIn)
        external
        returns (Result memory r)
    {
        try this.buy(pool, v3, token, quote, quoteIn) returns (uint256 expected, uint256 received) {
            (r.bought, r.buyExpected, r.buyReceived) = (true, expected, received);
        } catch {
            return r;
        }
        if (r.buyReceived == 0) return r;
        try this.sell(pool, v3, token, quote, r.buyReceived) returns (uint256 expected, uint256 received) {
            (r.sold, r.sellExpected, r.sellReceived) = (true, expected, received);
        } catch {}
    }

    function buy(address pool, bool v3, address token, address quote, uint256 amount)
        external
        returns (uint256 expected, uint256 received)
    {
        return _trade(pool, v3, quote, token, amount);
    }

    function sell(address pool, bool v3, address token, address quote, uint256 amount)
        external
        returns (uint256 expected, uint256 received)
    {
        return _trade(pool, v3, token, quote, amount);
    }

    /// Swaps `amount` of `tokenIn` for `tokenOut`; `expected` is what the pool pays for all of
    /// `amount` (V2: priced from its reserves; V3: what it sent), `received` what arrived here.
    function _trade(address pool, bool v3, address tokenIn, address tokenOut, uint256 amount)
        private
        returns (uint256 expected, uint256 received)
    {
        require(msg.sender == address(this), "TradeProbe: self only");
        uint256 before = IBalance(tokenOut).balanceOf(address(this));
        if (v3) {
            bool zeroForOne = IPoolV3(pool).token0() == tokenIn;
            (int256 a0, int256 a1) = IPoolV3(pool).swap(
                address(this),
                zeroForOne,
                int256(amount),
                zeroForOne ? MIN_SQRT_RATIO + 1 : MAX_SQRT_RATIO - 1,
                abi.encode(tokenIn)
            );
            expected = uint256(-(zeroForOne ? a1 : a0));
        } else {
            expected = _tradeV2(pool, tokenIn, amount);
        }
        received = IBalance(tokenOut).balanceOf(address(this)) - before;
    }

    /// Sends `amount` of `tokenIn` into the pair and takes out what arrived there buys, here.
    function _tradeV2(address pool, address tokenIn, uint256 amount) private returns (uint256 expected) {
        bool inIs0 = IPairV2(pool).token0() == tokenIn;
        (uint112 r0, uint112 r1,) = IPairV2(pool).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = inIs0 ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
        uint256 poolBefore = IBalance(tokenIn).balanceOf(pool);
        _pay(tokenIn, pool, amount);
        // A fee-on-transfer token delivers less than was sent: the pair prices what arrived.
        uint256 out = _amountOut(IBalance(tokenIn).balanceOf(pool) - poolBefore, reserveIn, reserveOut);
        IPairV2(pool).swap(inIs0 ? 0 : out, inIs0 ? out : 0, address(this), "");
        return _amountOut(amount, reserveIn, reserveOut);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        address tokenIn = abi.decode(data, (address));
        _pay(tokenIn, msg.sender, uint256(amount0Delta > 0 ? amount0Delta : amount1Delta));
    }

    /// transfer() that accepts tokens returning nothing, as USDT does.
    function _pay(address token, address to, uint256 amount) private {
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "TradeProbe: transfer failed");
    }

    /// UniswapV2Library.getAmountOut (0.3% fee).
    function _amountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) private pure returns (uint256) {
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        uint256 withFee = amountIn * 997;
        return (withFee * reserveOut) / (reserveIn * 1000 + withFee);
    }
}
