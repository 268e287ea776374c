// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "./ERC20.sol";

interface IERC20Minimal {
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}

/// A Uniswap-V2-style constant-product pair (x*y=k, 0.3% fee) whose LP share is an ERC-20.
/// Same accounting and events as V2; without flash swaps, price oracles and the protocol fee.
contract DevSwapPair is ERC20 {
    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint112 reserve0, uint112 reserve1);

    uint256 public constant MINIMUM_LIQUIDITY = 1000;

    address public immutable factory;
    address public token0;
    address public token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;
    uint256 private unlocked = 1;

    modifier lock() {
        require(unlocked == 1, "DevSwap: LOCKED");
        unlocked = 0;
        _;
        unlocked = 1;
    }

    constructor() ERC20("DevSwap LP", "DEVSWAP-LP", 18) {
        factory = msg.sender;
    }

    function initialize(address token0_, address token1_) external {
        require(msg.sender == factory, "DevSwap: FORBIDDEN");
        token0 = token0_;
        token1 = token1_;
    }

    function getReserves() public view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// Mints LP shares for the tokens sent to the pair since the last update.
    function mint(address to) external lock returns (uint256 liquidity) {
        (uint112 r0, uint112 r1,) = getReserves();
        uint256 balance0 = IERC20Minimal(token0).balanceOf(address(this));
        uint256 balance1 = IERC20Minimal(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - r0;
        uint256 amount1 = balance1 - r1;
        uint256 supply = totalSupply;
        if (supply == 0) {
            liquidity = sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
            _mint(address(0), MINIMUM_LIQUIDITY); // locked forever so the share price can't be zeroed
        } else {
            liquidity = min((amount0 * supply) / r0, (amount1 * supply) / r1);
        }
        require(liquidity > 0, "DevSwap: INSUFFICIENT_LIQUIDITY_MINTED");
        _mint(to, liquidity);
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1);
    }

    /// Burns the LP shares sent to the pair and pays out their part of both reserves.
    function burn(address to) external lock returns (uint256 amount0, uint256 amount1) {
        address t0 = token0;
        address t1 = token1;
        uint256 balance0 = IERC20Minimal(t0).balanceOf(address(this));
        uint256 balance1 = IERC20Minimal(t1).balanceOf(address(this));
        uint256 liquidity = balanceOf[address(this)];
        uint256 supply = totalSupply;
        amount0 = (liquidity * balance0) / supply;
        amount1 = (liquidity * balance1) / supply;
        require(amount0 > 0 && amount1 > 0, "DevSwap: INSUFFICIENT_LIQUIDITY_BURNED");
        _burn(address(this), liquidity);
        _safeTransfer(t0, to, amount0);
        _safeTransfer(t1, to, amount1);
        _update(IERC20Minimal(t0).balanceOf(address(this)), IERC20Minimal(t1).balanceOf(address(this)));
        emit Burn(msg.sender, amount0, amount1, to);
    }

    /// Pays out the requested amounts if the tokens sent in keep x*y >= k after the 0.3% fee.
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external lock {
        require(amount0Out > 0 || amount1Out > 0, "DevSwap: INSUFFICIENT_OUTPUT_AMOUNT");
        (uint112 r0, uint112 r1,) = getReserves();
        require(amount0Out < r0 && amount1Out < r1, "DevSwap: INSUFFICIENT_LIQUIDITY");
        (uint256 balance0, uint256 balance1) = _payOut(amount0Out, amount1Out, to);
        uint256 amount0In = balance0 > r0 - amount0Out ? balance0 - (r0 - amount0Out) : 0;
        uint256 amount1In = balance1 > r1 - amount1Out ? balance1 - (r1 - amount1Out) : 0;
        require(amount0In > 0 || amount1In > 0, "DevSwap: INSUFFICIENT_INPUT_AMOUNT");
        require(
            (balance0 * 1000 - amount0In * 3) * (balance1 * 1000 - amount1In * 3) >= uint256(r0) * r1 * 1000 ** 2,
            "DevSwap: K"
        );
        _update(balance0, balance1);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    /// Sends the swap's outputs and returns the pair's balances afterwards.
    function _payOut(uint256 amount0Out, uint256 amount1Out, address to) private returns (uint256, uint256) {
        address t0 = token0;
        address t1 = token1;
        require(to != t0 && to != t1, "DevSwap: INVALID_TO");
        if (amount0Out > 0) _safeTransfer(t0, to, amount0Out);
        if (amount1Out > 0) _safeTransfer(t1, to, amount1Out);
        return (IERC20Minimal(t0).balanceOf(address(this)), IERC20Minimal(t1).balanceOf(address(this)));
    }

    /// Makes the reserves match the balances (after a plain transfer to the pair).
    function sync() external lock {
        _update(IERC20Minimal(token0).balanceOf(address(this)), IERC20Minimal(token1).balanceOf(address(this)));
    }

    function _update(uint256 balance0, uint256 balance1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "DevSwap: OVERFLOW");
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0, reserve1);
    }

    function _safeTransfer(address token, address to, uint256 value) private {
        require(IERC20Minimal(token).transfer(to, value), "DevSwap: TRANSFER_FAILED");
    }

    function min(uint256 x, uint256 y) private pure returns (uint256) {
        return x < y ? x : y;
    }

    /// Babylonian square root, as in Uniswap V2.
    function sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
